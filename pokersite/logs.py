"""The JSON log lines (``POKER_LOG_FORMAT=json``): one object per record, for a log collector.

Each line has ``time`` (UTC, ISO 8601), ``level``, ``logger`` and ``message``; ``table`` and
``hand`` when the record carries them (``log.info(..., extra={"table": id, "hand": id})``, as
the table runtimes and the croupier log); ``exception`` with the traceback when there is one.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

#: The record attributes a line carries when set (``extra=``).
CONTEXT = ("table", "hand")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in CONTEXT:
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str)
