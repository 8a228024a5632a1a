"""The terminal table after a hand and at a tournament's table, through Textual's pilot
against a real daphne server (issue 32, items 7 and 8): the hand log shows every line's
cards; a player who went broke keeps their row, with the cards they showed, once the hand is
over; a call that put them all in says so; ``poker hand`` numbers seats as the table does; a
tournament's table shows its level and offers only what the server allows there, the add-on's
key while its window is open (issue 52)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from textual.widgets import RichLog, Static

from pokerclient.tui import AmountPrompt, PlayApp
from tests.browser.conftest import running_server
from tests.client.conftest import CHIPS, chips_conserved, client_env, make_players, poker
from tests.client.test_tui import status_line, until

pytestmark = pytest.mark.browser

#: A heads-up hand played through the services in one transaction (so the croupier never
#: sees the table between its steps): ``shover`` moves all in, ``buster`` calls with 60.
#: The deck comes from fixed seeds, tried in order until ``buster`` goes broke: the same
#: seed, and so the same cards, every run.
BUST_HAND = """
import itertools, json
from django.db import transaction
from tables.models import Player, Seat, Table
from tables.selectors.hands import hand_state, running_hand
from tables.services import hand_act, hand_start, seat_take, table_save
import tables.services.hands as hands

shover, buster = (Player.objects.get(user__username=n) for n in ("shover", "buster"))
with transaction.atomic():
    table = table_save(table=Table(name="Bust table", max_seats=6, action_seconds=20,
                                   time_bank_seconds=0, min_buy_in=40, max_buy_in=400))
    seat_take(table=table, player=shover, buy_in=200, seat_number=0)
    seat_take(table=table, player=buster, buy_in=60, seat_number=1)
    for k in itertools.count(1):
        tried = transaction.savepoint()
        hands.new_seed = lambda k=k: f"{k:064x}"
        hand = hand_start(table=table)
        while hand.is_running and not hand_state(hand).runs_due:
            actor = hand.seats[hand_state(hand).actor]["player_id"]
            version = Table.objects.values_list("version", flat=True).get(pk=table.pk)
            kind = "all_in" if actor == shover.pk else "call"
            hand = hand_act(table=table, player=Player.objects.get(pk=actor), hand_id=hand.pk,
                            version=version, action={"kind": kind})
        if not hand.is_running and not Seat.objects.filter(table=table, player=buster).exists():
            break
        transaction.savepoint_rollback(tried)
print(json.dumps({"table": table.pk, "hand": hand.pk}))
"""

TOURNAMENT = """
import json
from tables.models import Player
from tables.tournaments.models import TournamentTable
from tables.tournaments.services import tournament_create, tournament_register, tournament_start
me = Player.objects.get(user__username={name!r})
tournament = tournament_create(organiser=me, name="Friday SNG", seats_per_table=6,
    starting_stack=1500, bot_entrants=2, action_seconds=20,
    levels=[{{"small_blind": 10, "big_blind": 20, "ante": 0, "hands": 50}},
            {{"small_blind": 20, "big_blind": 40, "ante": 5, "hands": 50}}])
tournament_register(tournament=tournament, player=me)
tournament_start(tournament=tournament, by=me)
print(json.dumps(TournamentTable.objects.get(tournament=tournament).table_id))
"""


def plain(widget: Static) -> str:
    """What a widget shows (its Rich text or table), as plain text."""
    console = Console(width=110, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


def log_text(app) -> list[str]:
    return [line.text for line in app.query_one("#log", RichLog).lines]


async def test_a_broke_players_row_and_every_cards_line_stay_on_screen(server, tmp_path):
    keys = make_players(server, "shover", "buster")
    played = server.shell(BUST_HAND)
    app = PlayApp(server.url, keys["shover"], played["table"])
    async with app.run_test(size=(110, 40)) as pilot:
        state = await until(
            pilot,
            app,
            lambda s: not s["running"] and s["result"] and s["seats"][1]["status"] == "empty",
            "the hand over, buster's seat freed",
        )
        shown = {entry["name"]: entry for entry in state["result"]["shown"]}
        assert shown["buster"]["seat"] == 2 and len(shown["buster"]["cards"]) == 2
        drawn = render_cards(shown["buster"]["cards"])
        row = next(
            line for line in plain(app.query_one("#seats", Static)).splitlines() if "buster" in line
        )
        assert row.split()[0] == "2" and drawn in row and "out" in row

        lines = log_text(app)
        assert "buster calls (all-in)" in lines, lines
        board = render_cards(state["board"])
        flop = next(line for line in lines if line.startswith("Flop:"))
        assert flop == "Flop: " + render_cards(state["board"][:3])
        assert any(line == "buster shows " + drawn for line in lines), lines
        assert any(line.startswith("Your cards ") and len(line.split()) == 4 for line in lines)
        assert board.startswith(flop[len("Flop: ") :])
        await pilot.press("q")

    env = client_env(tmp_path, server, keys["shover"])
    history = poker(env, "hand", str(played["hand"]))
    assert history.returncode == 0, history.stderr
    seats = [line.split()[:3] for line in history.stdout.splitlines() if line.startswith("  seat")]
    assert seats == [["seat", "1", "shover"], ["seat", "2", "buster"]]
    assert "buster calls" in history.stdout and " p1 " not in history.stdout
    chips_conserved(server)


def render_cards(cards: list[str]) -> str:
    """Cards as the terminal draws them (``Ah`` as ``A♥``)."""
    symbols = {"h": "♥", "d": "♦", "c": "♣", "s": "♠"}
    return " ".join(card[0].replace("T", "10") + symbols[card[1]] for card in cards)


async def test_a_tournament_table_shows_its_level_and_offers_no_cash_keys(server):
    keys = make_players(server, "entrant")
    table = server.shell(TOURNAMENT.format(name="entrant"))
    app = PlayApp(server.url, keys["entrant"], table)
    async with app.run_test(size=(110, 40)) as pilot:
        state = await until(pilot, app, lambda s: s["you"] is not None, "the first state")
        assert state["you"]["seat"] is not None and state["you"]["bankroll"] is None
        board = plain(app.query_one("#board", Static))
        assert "Friday SNG  level 1: 10/20" in board and "next: 20/40 ante 5 in" in board
        turn = plain(app.query_one("#turn", Static))
        assert "[o] away: still dealt in" in turn and "bankroll" not in turn
        shown = {key: active.binding.action for key, active in app.screen.active_bindings.items()}
        assert shown["o"] == "away"
        assert not {"s", "t", "l"} & set(shown), shown

        seat = state["you"]["seat"]
        await pilot.press("t", "s", "l")  # not offered here: nothing asked, nothing sent
        assert not isinstance(app.screen, AmountPrompt)
        await pilot.press("o")
        state = await until(pilot, app, lambda s: s["you"]["sitting_out"], "away")
        assert status_line(app).startswith("You are away: you are still dealt in")
        assert "[i] I'm back" in plain(app.query_one("#turn", Static))
        await pilot.press("i")
        state = await until(pilot, app, lambda s: not s["you"]["sitting_out"], "back")
        assert state["you"]["seat"] == seat  # the keys that are not offered did nothing
        await pilot.press("q")


#: A heads-up hand the first to act folds (dealt from a fixed seed); the winner then leaves,
#: so no next hand ends the folder's chance to show. One transaction: the server's croupier
#: sees the table only after it, so it neither deals first nor moves the version in between.
FOLD_HAND = """
import json
from django.db import transaction
from tables.models import Player, Table
from tables.selectors.hands import hand_state
from tables.services import hand_act, hand_start, seat_leave, seat_take, table_save
import tables.services.hands as hands

folder, winner = (Player.objects.get(user__username=n) for n in ("folder", "winner"))
hands.new_seed = lambda: f"{7:064x}"
with transaction.atomic():
    table = table_save(table=Table(name="Fold table", max_seats=6, action_seconds=20,
                                   time_bank_seconds=0, min_buy_in=40, max_buy_in=400))
    seat_take(table=table, player=folder, buy_in=100, seat_number=0)
    seat_take(table=table, player=winner, buy_in=100, seat_number=1)
    hand = hand_start(table=table)
    actor = Player.objects.get(pk=hand.seats[hand_state(hand).actor]["player_id"])
    if actor != folder:  # heads-up, the button acts first: seat them the other way round
        folder, winner = winner, folder
    version = Table.objects.values_list("version", flat=True).get(pk=table.pk)
    hand_act(table=table, player=folder, hand_id=hand.pk, version=version,
             action={"kind": "fold"})
    seat_leave(table=table, player=winner)
print(json.dumps({"table": table.pk, "folder": folder.name,
                  "cards": [str(c) for c in hand_state(hand).hole[hand.seat_index_of(folder.pk)]]}))
"""


async def test_a_folder_shows_their_cards_with_a_key(server):
    keys = make_players(server, "folder", "winner")
    played = server.shell(FOLD_HAND)
    app = PlayApp(server.url, keys[played["folder"]], played["table"])
    async with app.run_test(size=(110, 40)) as pilot:
        state = await until(
            pilot, app, lambda s: s["you"] and s["you"]["can_show"], "the cards offered"
        )
        assert sorted(state["you"]["can_show"]) == sorted(played["cards"])
        assert "[w] show your cards" in plain(app.query_one("#turn", Static))
        await pilot.press("w")
        state = await until(
            pilot, app, lambda s: not s["you"]["can_show"], "the cards shown, none left to show"
        )
        drawn = render_cards(played["cards"])
        assert any(line.endswith("shows " + drawn) for line in log_text(app)), log_text(app)
        assert "[w] show" not in plain(app.query_one("#turn", Static))
        await pilot.press("w")  # nothing left: said so, nothing sent
        await pilot.pause(0.3)
        assert "no cards to show" in status_line(app)
        await pilot.press("q")
    chips_conserved(server)


#: A heads-up sit & go with rebuys in its first level, so the add-on's window is open from the
#: start (its last rebuy level); levels by hands, so no clock closes it during the test.
ADDON_TOURNAMENT = """
import json
from tables.models import Player
from tables.tournaments.models import TournamentTable
from tables.tournaments.services import tournament_create, tournament_register, tournament_start
me = Player.objects.get(user__username={name!r})
# six in, the winner paid: the bubble, which ends the add-on's window, is four players out away
tournament = tournament_create(organiser=me, name="Add-on SNG", seats_per_table=6,
    starting_stack=1500, bot_entrants=5, action_seconds=20, rebuy_levels=1,
    payouts="winner-takes-all", addon_chips=1000, addon_price=100,
    levels=[{{"small_blind": 10, "big_blind": 20, "ante": 0, "hands": 50}},
            {{"small_blind": 20, "big_blind": 40, "ante": 0, "hands": 50}}])
tournament_register(tournament=tournament, player=me)
tournament_start(tournament=tournament, by=me)
table = TournamentTable.objects.get(tournament=tournament).table_id
print(json.dumps({{"table": table, "tournament": tournament.pk}}))
"""
ADDON_TAKEN = """
import json
from tables.tournaments.models import Entry
entry = Entry.objects.get(tournament_id={tournament}, player__user__username={name!r})
print(json.dumps({{"taken": entry.addon_taken, "paid": entry.fee_paid}}))
"""


@pytest.fixture(scope="module")
def paused_server(tmp_path_factory):
    """A server whose hands stand 3 s apart: the add-on is taken in such a gap, which the
    0.6 s of the other tests' server left too short for a loaded machine's client."""
    with running_server(
        tmp_path_factory, POKER_HAND_PAUSE_SECONDS="3", POKER_BOT_DELAY="0.05,0.1"
    ) as running:
        yield running


async def test_the_addon_is_taken_with_a_key_between_hands(paused_server):
    """``u`` takes the add-on through the API while its window is open (the server refuses
    it during the player's hand: they fold and press it again between hands); once taken,
    ``u`` again shows the server's refusal and changes nothing."""
    server = paused_server
    keys = make_players(server, "adder")
    made = server.shell(ADDON_TOURNAMENT.format(name="adder"))
    app = PlayApp(server.url, keys["adder"], made["table"])

    def window_open(state: dict) -> bool:
        addon = (state.get("tournament") or {}).get("addon") or {}
        return state["you"] is not None and bool(addon.get("open"))

    said: list[str] = []  # every status the app showed: a frame may replace one at once
    show_status = app.show_status

    def showing(text: str) -> None:
        said.append(text)
        show_status(text)

    app.show_status = showing  # type: ignore[method-assign]

    async def pressed_u() -> str | None:
        """What pressing ``u`` answered; None when the key was not offered as it was pressed
        (the state moved on meanwhile: the client hides it while the window is shut)."""
        before = len(said)
        await pilot.press("u")
        for _ in range(300):  # the server's answer, however busy it is
            await pilot.pause(0.1)
            # the add-on's answer (an answer to the action before may still come meanwhile)
            answered = [text for text in said[before:] if "add-on" in text.lower()]
            if answered:
                return answered[0]
            if app.addon_open() is None:
                return None
        raise AssertionError("the add-on key answered nothing")

    async with app.run_test(size=(110, 40)) as pilot:
        await until(pilot, app, window_open, "the add-on's window")
        shown = {key: active.binding.action for key, active in app.screen.active_bindings.items()}
        assert shown["u"] == "addon"
        assert "[u] take the add-on: 1000 chips for 100" in plain(app.query_one("#turn", Static))
        answers = []
        # The player folds (or checks) at their turns. Once, while their hand is still being
        # played, ``u`` is refused; it is pressed again as the hand ends, in the gap before
        # the next (pressing it at random moments missed a loaded machine's short gaps).
        refused_in_hand = False
        steps: list[str] = []  # what each turn of the loop did, to read when it fails
        for _ in range(100):
            state = app.state or {}
            legal = state.get("legal")
            if legal:
                steps.append("act")
                version = state["version"]
                await pilot.press("f" if "fold" in legal["actions"] else "c")
                await until(pilot, app, lambda s, v=version: s["version"] != v, "the action")
                continue
            if state.get("running") and refused_in_hand:
                steps.append("wait")
                await until(pilot, app, lambda s: not s["running"] or s.get("legal"), "the gap")
                continue
            answer = await pressed_u()
            steps.append(f"u: {answer} (add-on {app.addon_open()})")
            if answer is None:
                continue
            answers.append(answer)
            if not answer.startswith("Take the add-on between your hands"):
                break
            refused_in_hand = True
        assert answers and answers[-1] == "Add-on taken: 1000 chips on your stack.", steps[-12:]
        assert server.shell(ADDON_TAKEN.format(tournament=made["tournament"], name="adder")) == {
            "taken": True,
            "paid": 100,
        }
        again = await pressed_u()
        assert again == "You have taken your add-on already. (addon_refused)"
        await pilot.press("q")
    assert server.shell(ADDON_TAKEN.format(tournament=made["tournament"], name="adder")) == {
        "taken": True,
        "paid": 100,
    }
    totals = server.shell(CHIPS)  # the price went into the prize pool, the chips onto a stack
    assert (
        totals["bankrolls"] + totals["stacks"] + totals["in_hands"] + totals["prize_pools"]
        == totals["granted"]
    )
    assert totals["tournament_chips"] == totals["tournament_chips_issued"]
