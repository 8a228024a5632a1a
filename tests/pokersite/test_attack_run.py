"""The attack run: every finding of the third attack from outside (issue 54) played against a
real daphne server over HTTP, as an attacker would, and then the server's own log read: not
one answer of 500 and not one traceback, and each attack refused with its clear answer.

The world (players, a hosted game, a club, a hand of every game) is made in the server's
database by ``tests/pokersite/attack_world.py``; everything after that goes through HTTP.
"""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass
from typing import Any

import pytest

from tests.browser.conftest import ROOT, running_server
from tests.pokersite.attack_world import PASSWORD

# One server of its own (SQLite, in-memory layer): the PostgreSQL pass would run the same.
pytestmark = [pytest.mark.slow, pytest.mark.one_pass, pytest.mark.timeout(600)]

POKERNOW_LOG = (ROOT / "tests/engine/data/pokernow/charlestudor_input_log_002.csv").read_bytes()
POKERNOW_NAME = "P1 @ eNVKMq2Tcb"
INVISIBLE = ["\u3164", "\u115f", "\uffa0", "\u2800", "\u034f", "\u3000"]


@dataclass
class Answer:
    status: int
    body: bytes
    location: str = ""

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class Visitor:
    """One browser-less client: its cookies (a session, Django's CSRF cookie) or an API token,
    and every status it was answered."""

    base: str
    answers: list[tuple[str, int]]  # shared by every visitor of the run
    session: str | None = None
    token: str | None = None

    def __post_init__(self) -> None:
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect()
        )
        if self.session:
            self._cookie("sessionid", self.session)

    def _cookie(self, name: str, value: str) -> None:
        host = urllib.parse.urlsplit(self.base).hostname or ""
        self.cookies.set_cookie(
            http.cookiejar.Cookie(
                0,
                name,
                value,
                None,
                False,
                host,
                False,
                False,
                "/",
                True,
                False,
                None,
                True,
                None,
                None,
                {},
            )
        )

    def _csrf(self) -> str:
        for cookie in self.cookies:
            if cookie.name == "csrftoken":
                return str(cookie.value)
        self._cookie("csrftoken", "a" * 32)
        return "a" * 32

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict | None = None
    ) -> Answer:
        headers = dict(headers or {})
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        if method not in ("GET", "HEAD"):
            headers.setdefault("X-CSRFToken", self._csrf())
        request = urllib.request.Request(self.base + path, body, headers, method=method)
        try:
            with self.opener.open(request, timeout=120) as response:
                answer = Answer(response.status, response.read())
        except urllib.error.HTTPError as error:
            answer = Answer(error.code, error.read(), error.headers.get("Location", ""))
        self.answers.append((f"{method} {path}", answer.status))
        return answer

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def post_json(self, path: str, data: Any, method: str = "POST") -> Answer:
        body = json.dumps(data).encode()
        return self.request(method, path, body, {"Content-Type": "application/json"})

    def post_form(self, path: str, fields: dict[str, str] | list[tuple[str, str]]) -> Answer:
        self.get(path)  # the page, for its CSRF cookie
        pairs = list(fields.items()) if isinstance(fields, dict) else fields
        pairs.append(("csrfmiddlewaretoken", self._csrf()))
        body = urllib.parse.urlencode(pairs).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        return self.request("POST", path, body, headers)

    def post_files(self, path: str, fields: dict[str, str], files: dict[str, bytes]) -> Answer:
        boundary = uuid.uuid4().hex
        parts = []
        for name, value in fields.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
                + value.encode()
                + b"\r\n"
            )
        for name, content in files.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                f'filename="{name}.csv"\r\nContent-Type: text/csv\r\n\r\n'.encode()
                + content
                + b"\r\n"
            )
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        return self.request("POST", path, body, headers)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    # nobody exempt from the limits: the invitation codes' throttle is attacked too
    with running_server(tmp_path_factory, RATELIMIT_EXEMPT="", POKER_CROUPIER="0") as server:
        world = server.shell(
            "import json; from tests.pokersite.attack_world import build; "
            "print(json.dumps(build()))"
        )
        yield server, world


def _token(visitor: Visitor, name: str) -> str:
    answer = visitor.post_json("/api/auth/token/", {"username": name, "password": PASSWORD})
    assert answer.status == 200, answer.text
    return str(answer.json()["token"])


def test_every_finding_of_the_attack_is_refused_and_nothing_answers_500(site):
    server, world = site
    answered: list[tuple[str, int]] = []

    def new(name: str | None = None, page: bool = False) -> Visitor:
        """A visitor: logged out, or ``name`` by a session (``page``) or an API token."""
        visitor = Visitor(server.url, answered)
        if name and page:
            visitor = Visitor(server.url, answered, session=world["sessions"][name])
        elif name:
            visitor.token = _token(visitor, name)
        return visitor

    alice, bob, carol, erin = (new(name) for name in ("alice", "bob", "carol", "erin"))
    visitor = new()
    game = world["game"]
    state_url = f"/api/tables/{game}/state/"

    # 1. a paused table's hand played to a fold, then both players leave
    actor = next(player for player in (alice, bob) if player.get(state_url).json()["legal"])
    assert alice.post_json(f"/api/tables/{game}/pause/", {}).status == 200
    state = actor.get(state_url).json()
    fold = {"hand": state["hand"], "version": state["version"], "action": "fold"}
    assert actor.post_json(f"/api/tables/{game}/actions/", fold).status == 200
    for viewer in (alice, bob):
        assert viewer.get(state_url).status == 200
    assert visitor.get(state_url).status == 404  # a private game: not a visitor's to see
    for player in (alice, bob):
        assert player.request("DELETE", f"/api/tables/{game}/seat/").status == 200
        assert player.get(state_url).status == 200
    assert new("alice", page=True).get(f"/tables/{game}/").status == 200

    # 2. every game's hand against every download: a file or a 422 naming format and game
    for name, hand in world["hands"].items():
        for kind in ("phh", "yaml", "pokerstars"):
            answer = alice.get(f"/api/hands/{hand}/{kind}/")
            assert answer.status in (200, 422), (name, kind, answer.status)
            if answer.status == 422:
                assert answer.json()["code"].startswith(f"no_{kind}_for_"), answer.text

    # 3. invisible letters: a look-alike name anywhere is refused
    for blank in INVISIBLE:
        signup = new().post_form(
            "/accounts/signup/",
            {"username": f"bob{blank}", "password1": PASSWORD, "password2": PASSWORD},
        )
        assert signup.status == 200 and 'class="error"' in signup.text, blank  # the form again
        made = alice.post_json("/api/tables/", {"name": blank})
        assert made.status == 400, made.text
        assert carol.post_json("/api/clubs/", {"name": blank}).status == 400
    guest = new().post_form(f"/join/{world['game_invite']}/guest/", {"name": "alice\u3164"})
    assert guest.status == 400 and 'class="error"' in guest.text  # no guest made

    # 4. bidi overrides and zero-width characters are taken out of free text
    made = carol.post_json(
        "/api/clubs/", {"name": "Bidi club", "description": "Fri\u202eday\u200b"}
    )
    assert made.status == 201, made.text
    page = new("carol", page=True).get(f"/clubs/{made.json()['id']}/")
    assert page.status == 200 and "\u202e" not in page.text and "\u200b" not in page.text

    # 5. a club table's invite link is a 404 to visitors, and makes no guest
    link = f"/join/{world['club_invite']}/"
    assert new().get(link).status == 404
    assert new().post_form(link + "guest/", {"name": "sneaky"}).status == 404

    # 6. the importer's edges
    header = b"entry,at,order\n"
    cases = [
        (
            header + b'"' + b"x" * 140_000 + b'",2021-01-01T00:00:00.000Z,1\n',
            None,
            "import_too_large",
        ),
        (header + b"x,y,1\r" * 20_001, None, "import_too_large"),
        (
            POKERNOW_LOG,
            b"player_nickname,player_id,net\nP1,eNVKMq2Tcb,1e999999999\nspa,x,-1e999999999\n",
            "bad_ledger",
        ),
    ]
    for body, ledger, code in cases:
        files = {"log": body, **({"ledger": ledger} if ledger else {})}
        answer = erin.post_files("/api/imports/pokernow/", {"pokernow_name": POKERNOW_NAME}, files)
        assert answer.status == 400 and answer.json()["code"] == code, answer.text[:300]
    # the same log twice: the second says it was imported already and makes nothing
    first = erin.post_files(
        "/api/imports/pokernow/", {"pokernow_name": POKERNOW_NAME}, {"log": POKERNOW_LOG}
    )
    assert first.status == 201, first.text[:300]
    again = erin.post_files(
        "/api/imports/pokernow/", {"pokernow_name": POKERNOW_NAME}, {"log": POKERNOW_LOG}
    )
    assert again.status == 400 and again.json()["code"] == "already_imported", again.text[:300]

    # 7. the smaller ones: invitation codes guessed, a form of too many fields, a removed
    # member's lobby
    guesses = [
        erin.post_json(f"/api/clubs/{world['club']}/join/", {"code": "nope"}) for _ in range(12)
    ]
    assert 429 in [g.status for g in guesses]
    fields = urllib.parse.urlencode([(f"f{i}", "1") for i in range(1_200)]).encode()
    crowded = bob.request(
        "POST",
        f"/api/tables/{game}/actions/",
        fields,
        {"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert crowded.status == 400 and crowded.json()["code"] == "parse_error"
    dave_page = new("dave", page=True)
    lobby = dave_page.get("/")
    assert lobby.status == 200 and f'href="/tables/{world["club_table"]}/"' not in lobby.text
    assert dave_page.get(f"/tables/{world['club_table']}/").status == 404

    # and in the end: nothing answered 500, nothing in the server's log went wrong
    assert len(answered) > 100
    assert not [a for a in answered if a[1] >= 500], answered
    log_text = server.log.read_text(errors="replace")
    assert "Internal Server Error" not in log_text and "Traceback" not in log_text, log_text[-3000:]
