"""Take the docs' and README's screenshot: the table page at 1280x800, mid-hand.

    .venv/bin/python docs/screenshot.py            # writes docs/images/table.png

A real daphne server on its own SQLite file (the browser tests' ``running_server``), a demo
table of three bots as ``make run`` creates, one player signed up in Chromium who sits down
and waits for their turn, so the action bar shows.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser import steps  # noqa: E402
from tests.browser.conftest import CHROMIUM_ARGS, running_server  # noqa: E402
from tests.conftest import chromium_executable  # noqa: E402

OUTPUT = ROOT / "docs" / "images" / "table.png"
DEMO_TABLE = """
import json
from tables.models import Table
from tables.services import table_save
t = table_save(table=Table(name="Friday night", max_seats=6, small_blind=1, big_blind=2,
    action_seconds=30, time_bank_seconds=60, bots_allowed=True, bot_seats=3))
print(json.dumps(t.pk))
"""


class TemporaryDirectories:
    """What ``running_server`` asks of pytest's ``tmp_path_factory``."""

    def mktemp(self, name: str) -> Path:
        return Path(tempfile.mkdtemp(prefix=f"{name}-"))


def main() -> None:
    from playwright.sync_api import sync_playwright

    with running_server(TemporaryDirectories(), POKER_BOT_DELAY="0.5,1.0") as server:
        table_id = server.shell(DEMO_TABLE)
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=chromium_executable(), args=CHROMIUM_ARGS
            )
            page = chromium.new_page(viewport={"width": 1280, "height": 800})
            steps.sign_up(page, server.url, "alice")
            steps.open_table(page, server.url, table_id)
            steps.sit_down(page, 200)
            # Alice calls before the flop until it is her turn on a flop: her cards, the
            # board, the pot and the action bar all show.
            for _ in range(40):
                page.wait_for_selector("form.act", timeout=120_000)
                if page.locator("#table-board .pc").count() >= 3:
                    break
                version = page.get_attribute("#table-actions", "data-version")
                page.keyboard.press("c")
                page.wait_for_function(
                    "v => document.querySelector('#table-actions').dataset.version !== v",
                    arg=version,
                    timeout=60_000,
                )
            else:
                raise RuntimeError("no turn on a flop in 40 turns")
            OUTPUT.parent.mkdir(exist_ok=True)
            page.screenshot(path=str(OUTPUT))
            chromium.close()
    print(OUTPUT)


if __name__ == "__main__":
    main()
