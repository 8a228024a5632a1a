"""The client's settings file: the server and the API token, readable by its owner only.

``$POKER_CONFIG`` or ``~/.config/poker/config.json``: ``{"server": ..., "token": ...}``,
written with mode 0600. ``--server`` on the command line wins over the file's server.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_SERVER = "http://127.0.0.1:8000"


class ClientError(Exception):
    """Anything that went wrong, as one line for the terminal."""


def config_path() -> Path:
    path = os.environ.get("POKER_CONFIG")
    if path:
        return Path(path)
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "poker" / "config.json"


@dataclass
class Config:
    server: str = DEFAULT_SERVER
    token: str | None = None
    username: str | None = None

    @classmethod
    def load(cls, server: str | None = None) -> Config:
        path = config_path()
        data: dict[str, Any] = {}
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise ClientError(f"cannot read {path}: {error}") from None
        config = cls(
            server=data.get("server") or DEFAULT_SERVER,
            token=data.get("token"),
            username=data.get("username"),
        )
        if server:
            config.server = server
        config.server = config.server.rstrip("/")
        return config

    def save(self) -> Path:
        """Write the file, readable and writable by its owner only (the token is in it)."""
        path = config_path()
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        body = json.dumps(
            {"server": self.server, "token": self.token, "username": self.username}, indent=2
        )
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(descriptor, 0o600)  # an older file may have been more open
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(body + "\n")
        return path

    def need_token(self) -> str:
        if not self.token:
            raise ClientError("not logged in: run `poker login` first")
        return self.token
