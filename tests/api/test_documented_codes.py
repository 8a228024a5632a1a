"""The documented error codes are the codes sent (issue 32 item 9: the docs said 403
``not_host``, the API answered ``permission_denied``).

The README, the docs (docs/**/*.md) and the OpenAPI document are walked for every "status
`code`" they promise (``403 `not_host```, and each code of a list like "409 with the
refusal's code (`table_closed`, ...)"); each promise must have a scenario below, and each
scenario provokes its answer from the real API: a promise added to the docs without a check
here fails, and so does an answer that drifts from its docs."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tables.models import Player, Table
from tables.selectors.hands import hand_state
from tables.services import hand_start, seat_take
from tables.services.hosting import MAX_OPEN_GAMES, table_create, table_host_close
from tables.tournaments.services.organise import tournament_organise

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def docs_text() -> str:
    """The README and every page of the docs site."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return "\n".join(page.read_text(encoding="utf-8") for page in pages)


FAST = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 3} for n in range(12)]


def documented_pairs(text: str) -> set[tuple[int, str]]:
    """Every (status, code) ``text`` promises: "403 `not_host`", and "409 with the refusal's
    code (`a`, `b`, ...)" / "400 when ... (`a`, ...)" for each code listed."""
    flat = " ".join(text.split()).replace("``", "`")
    pairs = {(int(s), c) for s, c in re.findall(r"\b([45]\d\d) `([a-z][a-z_]*)`", flat)}
    for match in re.finditer(r"\b([45]\d\d) (?:with|when)[^()]*\(([^)]*)\)", flat):
        for code in re.findall(r"`([a-z][a-z_]*)`", match.group(2)):
            pairs.add((int(match.group(1)), code))
    return pairs


def strings_in(value) -> list[str]:
    """Every string in a JSON document (its descriptions and examples)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [text for item in value for text in strings_in(item)]
    return []


class World:
    """alice hosts a public game and organises a tournament; bob and carol are players."""

    def __init__(self, players):
        self.alice, self.bob, self.carol = players
        self.game = table_create(host=self.alice, name="Documented", private=False)

    def client(self, player=None) -> APIClient:
        client = APIClient()
        if player is not None:
            client.force_login(player.user)
        return client

    def tournament(self, **fields) -> int:
        settings = {"name": "Cup", "levels": FAST, **fields}
        return tournament_organise(organiser=self.alice, **settings).pk

    def register(self, tid: int, *players):
        for player in players:
            answer = self.client(player).post(f"/api/tournaments/{tid}/registration/")
            assert answer.status_code == 201, answer.json()

    def dealt(self) -> tuple[Table, object]:
        """bob and carol heads-up in a running hand at the game."""
        seat_take(table=self.game, player=self.bob, buy_in=100)
        seat_take(table=self.game, player=self.carol, buy_in=100)
        hand = hand_start(table=self.game)
        return self.game, hand

    def act(self, player, hand, **body):
        version = Table.objects.get(pk=hand.table_id).version
        body = {"hand": hand.pk, "version": version, **body}
        return self.client(player).post(
            f"/api/tables/{hand.table_id}/actions/", body, format="json"
        )

    def actor(self, hand, other=False):
        index = hand_state(hand).actor
        actor_id = hand.seats[index]["player_id"]
        pick = (lambda p: p.pk != actor_id) if other else (lambda p: p.pk == actor_id)
        return next(p for p in (self.bob, self.carol) if pick(p))


def _too_many_games(w: World):
    for n in range(MAX_OPEN_GAMES - 1):  # alice has one already
        table_create(host=w.alice, name=f"Game {n}")
    return w.client(w.alice).post("/api/tables/", {"name": "One more"}, format="json")


def _table_closed(w: World):
    table_host_close(table=w.game, by=w.alice.user)
    return w.client(w.alice).patch(f"/api/tables/{w.game.pk}/", {"ante": 1}, format="json")


def _request_pending(w: World):
    game = table_create(host=w.alice, name="Approval", private=False, seat_approval=True)
    url = f"/api/tables/{game.pk}/requests/"
    assert w.client(w.bob).post(url, {"amount": 100}, format="json").status_code == 201
    return w.client(w.bob).post(url, {"amount": 100}, format="json")


def _table_full(w: World):
    game = table_create(host=w.alice, name="Two", private=False, max_seats=2)
    seat_take(table=game, player=w.alice, buy_in=100)
    seat_take(table=game, player=w.bob, buy_in=100)
    return w.client(w.carol).post(f"/api/tables/{game.pk}/seat/", {"buy_in": 100}, format="json")


def _hand_in_progress(w: World):
    _, _hand = w.dealt()
    top_up = {"amount": 10}
    return w.client(w.bob).post(f"/api/tables/{w.game.pk}/top-up/", top_up, format="json")


def _removed_by_host(w: World):
    _, hand = w.dealt()
    remove = {"action": "remove"}
    url = f"/api/tables/{w.game.pk}/players/{w.bob.pk}/"
    assert w.client(w.alice).post(url, remove, format="json").json()["done_now"] is False
    return w.client(w.bob).post(f"/api/tables/{w.game.pk}/sit-in/")


def _below_min_raise(w: World):
    _, hand = w.dealt()
    return w.act(w.actor(hand), hand, action="raise", amount=3)  # 1/2: at least to 4


def _above_max_raise(w: World):
    Table.objects.filter(pk=w.game.pk).update(betting=Table.Betting.POT_LIMIT)
    _, hand = w.dealt()
    return w.act(w.actor(hand), hand, action="raise", amount=50)  # the pot allows to 6


def _nothing_to_call(w: World):
    _, hand = w.dealt()
    assert w.act(w.actor(hand), hand, action="call").status_code == 200
    hand.refresh_from_db()
    return w.act(w.actor(hand), hand, action="call")  # the big blind, with nothing to call


def _check_facing_bet(w: World):
    _, hand = w.dealt()  # heads-up before the flop: the button's small blind faces the big
    return w.act(w.actor(hand), hand, action="check")


def _stale_version(w: World):
    _, hand = w.dealt()
    version = Table.objects.get(pk=w.game.pk).version
    return w.act(w.actor(hand), hand, action="fold", version=version - 1)


def _not_your_turn(w: World):
    _, hand = w.dealt()
    return w.act(w.actor(hand, other=True), hand, action="fold")


def _buy_in_out_of_range(w: World):
    return w.client(w.bob).post(f"/api/tables/{w.game.pk}/seat/", {"buy_in": 5}, format="json")


def _insufficient_bankroll_seat(w: World):
    Player.objects.filter(pk=w.bob.pk).update(bankroll=50)
    return w.client(w.bob).post(f"/api/tables/{w.game.pk}/seat/", {"buy_in": 100}, format="json")


def _insufficient_bankroll_entry(w: World):
    tid = w.tournament(entry_fee=100)
    Player.objects.filter(pk=w.bob.pk).update(bankroll=50)
    return w.client(w.bob).post(f"/api/tournaments/{tid}/registration/")


def _already_registered(w: World):
    tid = w.tournament()
    w.register(tid, w.bob)
    return w.client(w.bob).post(f"/api/tournaments/{tid}/registration/")


def _not_registered(w: World):
    tid = w.tournament()
    return w.client(w.bob).delete(f"/api/tournaments/{tid}/registration/")


def _tournament_full(w: World):
    tid = w.tournament(seats_per_table=2)
    w.register(tid, w.alice, w.bob)
    return w.client(w.carol).post(f"/api/tournaments/{tid}/registration/")


def _started(w: World) -> int:
    tid = w.tournament()
    w.register(tid, w.alice, w.bob)
    assert w.client(w.alice).post(f"/api/tournaments/{tid}/start/").status_code == 200
    return tid


def _registration_closed(w: World):
    return w.client(w.carol).post(f"/api/tournaments/{_started(w)}/registration/")


def _tournament_started(w: World):
    return w.client(w.alice).post(f"/api/tournaments/{_started(w)}/start/")


def _too_few_entrants(w: World):
    tid = w.tournament()
    w.register(tid, w.bob)
    return w.client(w.alice).post(f"/api/tournaments/{tid}/start/")


def _rebuy_refused(w: World):
    return w.client(w.bob).post(f"/api/tournaments/{_started(w)}/rebuy/")


def _addon_refused(w: World):
    return w.client(w.bob).post(f"/api/tournaments/{_started(w)}/addon/")


def _deal_refused(w: World):
    url = f"/api/tournaments/{_started(w)}/deal/"
    return w.client(w.bob).post(url, {"keep": 10**9}, format="json")


def _not_organiser(w: World):
    tid = w.tournament()
    w.register(tid, w.alice, w.bob)
    return w.client(w.bob).post(f"/api/tournaments/{tid}/start/")


def _not_host(w: World):
    return w.client(w.bob).patch(f"/api/tables/{w.game.pk}/", {"ante": 1}, format="json")


def _hand_running(w: World):
    _, hand = w.dealt()
    return w.client(w.bob).get(f"/api/hands/{hand.pk}/")


def _idempotency_key_reused(w: World):
    client = w.client(w.bob)
    url = f"/api/tables/{w.game.pk}/seat/"
    client.post(url, {"buy_in": 100}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    return client.post(url, {"buy_in": 120}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")


def _request_too_large(w: World):
    body = json.dumps({"name": "x" * 3_000_000}).encode()
    return w.client(w.alice).generic("POST", "/api/tables/", body, content_type="application/json")


def _pokernow_upload(log: bytes, name: str = "P1 @ eNVKMq2Tcb", ledger: bytes | None = None):
    def upload(w: World):
        body = {"log": SimpleUploadedFile("log.csv", log, "text/csv"), "pokernow_name": name}
        if ledger is not None:
            body["ledger"] = SimpleUploadedFile("ledger.csv", ledger, "text/csv")
        return w.client(w.alice).post("/api/imports/pokernow/", body, format="multipart")

    return upload


POKERNOW_LOG = (ROOT / "tests/engine/data/pokernow/charlestudor_input_log_002.csv").read_bytes()


def _throttled(w: World):
    """Wrong club invitation codes past the limit (from an address that is not exempt)."""
    import secrets

    from django.conf import settings

    from tables.clubs.services import club_create

    club = club_create(owner=w.alice, name="Throttled club")
    address = f"2001:db8:{secrets.token_hex(2)}:{secrets.token_hex(2)}::1"
    limit, _ = settings.RATELIMIT_WRONG_CODES
    for _ in range(limit + 1):
        answer = w.client(w.bob).post(
            f"/api/clubs/{club.pk}/join/", {"code": "wrong"}, format="json", REMOTE_ADDR=address
        )
    return answer


def _already_imported(w: World):
    _pokernow_upload(POKERNOW_LOG)(w)
    return _pokernow_upload(POKERNOW_LOG)(w)


#: (status, code) -> what provokes it from the real API.
SCENARIOS: dict[tuple[int, str], Callable[[World], object]] = {
    (400, "invalid"): lambda w: w.client(w.alice).post(
        "/api/tables/", {"max_seats": 13}, format="json"
    ),
    (400, "parse_error"): lambda w: w.client().generic(
        "POST", "/api/tables/", b"[" * 1000, content_type="application/json"
    ),
    (413, "request_too_large"): _request_too_large,
    (415, "unsupported_media_type"): lambda w: w.client(w.alice).generic(
        "POST", "/api/tables/", b"name=x", content_type="text/plain"
    ),
    (401, "not_authenticated"): lambda w: w.client().get("/api/hands/"),
    (404, "not_found"): lambda w: w.client().get("/api/tables/999999/"),
    (403, "not_host"): _not_host,
    (403, "not_organiser"): _not_organiser,
    (409, "hand_running"): _hand_running,
    (409, "too_many_games"): _too_many_games,
    (409, "table_closed"): _table_closed,
    (409, "request_pending"): _request_pending,
    (409, "stale_version"): _stale_version,
    (409, "not_your_turn"): _not_your_turn,
    (409, "table_full"): _table_full,
    (409, "hand_in_progress"): _hand_in_progress,
    (409, "removed_by_host"): _removed_by_host,
    (400, "below_min_raise"): _below_min_raise,
    (400, "above_max_raise"): _above_max_raise,
    (400, "nothing_to_call"): _nothing_to_call,
    (400, "check_facing_bet"): _check_facing_bet,
    (400, "buy_in_out_of_range"): _buy_in_out_of_range,
    (400, "insufficient_bankroll"): _insufficient_bankroll_seat,
    (409, "insufficient_bankroll"): _insufficient_bankroll_entry,
    (409, "already_registered"): _already_registered,
    (409, "not_registered"): _not_registered,
    (409, "tournament_full"): _tournament_full,
    (409, "registration_closed"): _registration_closed,
    (409, "tournament_started"): _tournament_started,
    (409, "too_few_entrants"): _too_few_entrants,
    (409, "rebuy_refused"): _rebuy_refused,
    (409, "addon_refused"): _addon_refused,
    (409, "deal_refused"): _deal_refused,
    (422, "idempotency_key_reused"): _idempotency_key_reused,
    (400, "not_pokernow_log"): _pokernow_upload(b"hello,world\n"),
    (400, "name_not_in_log"): _pokernow_upload(POKERNOW_LOG, name="nobody"),
    (400, "bad_ledger"): _pokernow_upload(POKERNOW_LOG, ledger=b"name,amount\nx,1\n"),
    (400, "import_too_large"): _pokernow_upload(b"entry,at,order\n" + b"x,y,1\n" * 20_001),
    (400, "already_imported"): _already_imported,
    (429, "throttled"): _throttled,
}


@pytest.fixture(scope="module")
def openapi_text(django_db_blocker) -> str:
    with django_db_blocker.unblock():
        return APIClient().get("/api/schema/?format=json").content.decode()


def test_every_documented_code_has_a_scenario(openapi_text):
    readme = documented_pairs(docs_text())
    openapi = documented_pairs(" ".join(strings_in(json.loads(openapi_text))))
    # the walk finds the promises
    assert (403, "not_host") in readme and len(readme) >= 25
    assert (409, "stale_version") in openapi and (400, "nothing_to_call") in openapi
    missing = sorted((readme | openapi) - set(SCENARIOS))
    assert not missing, f"documented without a check here: {missing}"


@pytest.mark.parametrize("promise", sorted(SCENARIOS), ids=lambda p: f"{p[0]}-{p[1]}")
def test_the_documented_code_is_the_code_sent(players, promise, settings):
    settings.POKER_CROUPIER = False
    status, code = promise
    answer = SCENARIOS[promise](World(players))
    assert (answer.status_code, answer.json().get("code")) == (status, code), answer.json()
    assert answer.json()["message"]
