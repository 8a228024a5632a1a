"""PokerNow logs (engine/pokernow.py) as PHH: three real logs from public repositories
(tests/engine/data/pokernow/SOURCES.md), every imported hand replaying to the stacks PokerNow
printed at the start of the next hand, every skipped hand listed with its reason."""

from __future__ import annotations

import csv
import gzip
import io
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from engine import phh
from engine.errors import HandHistoryError
from engine.pokernow import import_log

DATA = Path(__file__).parent / "data" / "pokernow"
STACKS = re.compile(r"#\d+ \"(.+?)\" \(([\d.]+)\)")
# a player's stack may change between two hands without a hand: they are not compared there
BETWEEN = re.compile(r"^The (?:player|admin) .*\"(.+?)\"")
# a side bet paid after a hand, not the hand's chips: added back to the stacks printed next
BOUNTY = re.compile(r"^\"(.+?)\" paid ([\d.]+) for the 7-2 bounty to \"(.+?)\"$")


def _text(name: str) -> str:
    path = DATA / name
    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8")


def _printed(
    text: str,
) -> tuple[dict[int, dict[str, str]], dict[int, set[str]], dict[int, dict[str, float]]]:
    """Each hand's printed starting stacks, who changed seat or stack just before it, and the
    bounties paid after it."""
    rows = sorted(
        (int(order), entry) for entry, _, order in csv.reader(io.StringIO(text)) if order.isdigit()
    )
    stacks: dict[int, dict[str, str]] = {}
    moved: dict[int, set[str]] = {}
    number, between = 0, set[str]()
    paid: dict[int, dict[str, float]] = defaultdict(dict)  # hand -> name -> bounty paid
    for _, entry in rows:
        start = re.match(r"-- starting hand #(\d+)", entry)
        if start:
            number = int(start[1])
            moved[number], between = between, set()
        elif entry.startswith("Player stacks:") and number not in stacks:
            stacks[number] = dict(STACKS.findall(entry))
        elif BETWEEN.match(entry):
            between.update(re.findall(r"\"(.+?)\"", entry))
        elif bounty := BOUNTY.match(entry):
            paid[number][bounty[1]] = paid[number].get(bounty[1], 0) + float(bounty[2])
            paid[number][bounty[3]] = paid[number].get(bounty[3], 0) - float(bounty[2])
    return stacks, moved, paid


LOGS = {
    # log: (hands imported, hands in the log)
    "charlestudor_input_log_002.csv": (4, 4),
    "drkyoda_pglDepIXhH9TNyXaFfbHYetk-.csv.gz": (270, 312),
    "drkyoda_tournament_pglhTdT0g-V_oxxMaQxatNdFk.csv.gz": (49, 59),
    "whitlock23_pglnMFhFI9KhboCBC09b_dE3b.csv.gz": (166, 194),
    "ahui21_pgljGheBAGUrRc9Fql_HCShCm.csv.gz": (149, 177),
    "drkyoda_antes_pglX9qKFV2jh2BntjoUQVj0MP.csv.gz": (73, 86),
}


@pytest.mark.parametrize("name", LOGS)
def test_every_imported_hand_ends_with_the_stacks_pokernow_printed_next(name: str) -> None:
    text = _text(name)
    result = import_log(text)
    imported, total = LOGS[name]
    assert (len(result.hands), len(result.hands) + len(result.skipped)) == (imported, total)
    printed, moved, paid = _printed(text)
    unit = result.unit
    compared = 0
    for hand in result.hands:
        replayed = phh.loads(hand.phh).replay()  # the file as written, read back
        ours = dict(zip(replayed.players, replayed.stacks, strict=True))
        assert dict(zip(replayed.players, replayed.starting_stacks, strict=True)) == {
            n: round(float(v) / float(unit)) for n, v in printed[hand.number].items()
        }
        following = printed.get(hand.number + 1, {})
        for player, stack in following.items():
            if player in ours and player not in moved.get(hand.number + 1, set()):
                # as if no bounty had been paid after the hand
                before = float(stack) + paid[hand.number].get(player, 0)
                assert ours[player] == round(before / float(unit)), (hand.number, player)
                compared += 1
    assert compared >= len(result.hands)  # two players or more, in most hands


@pytest.mark.parametrize("name", LOGS)
def test_every_skipped_hand_is_listed_with_its_reason(name: str) -> None:
    result = import_log(_text(name))
    numbers = [h.number for h in result.hands] + [s.number for s in result.skipped]
    assert sorted(numbers) == list(range(1, len(numbers) + 1))  # every hand, once
    assert all(s.reason for s in result.skipped)
    assert [h.number for h in result.hands] == sorted(h.number for h in result.hands)


def test_cents_are_whole_chips_of_the_smallest_unit() -> None:
    result = import_log(_text("drkyoda_pglDepIXhH9TNyXaFfbHYetk-.csv.gz"))
    assert str(result.unit) == "0.01"
    first = phh.loads(result.hands[0].phh)
    assert first.blinds_or_straddles[:2] == [10, 25]  # the 0.10/0.25 blinds
    assert first.extra["pokernow_unit"] == "0.01"


def test_the_games_and_the_reasons_in_the_cash_log() -> None:
    result = import_log(_text("drkyoda_pglDepIXhH9TNyXaFfbHYetk-.csv.gz"))
    variants = {phh.loads(h.phh).variant for h in result.hands}
    assert variants == {"NT", "PO", "PO/8"}
    reasons = " ".join(s.reason for s in result.skipped)
    for reason in ("the deck runs out", "mucked at showdown"):
        assert reason in reasons


def test_a_rebuy_between_hands_and_a_dead_button_are_imported() -> None:
    result = import_log(_text("drkyoda_pglDepIXhH9TNyXaFfbHYetk-.csv.gz"))
    imported = {h.number: h for h in result.hands}
    # after hand 78 the host topped Deckhole up "from 6.84 to 26.84": the hand ends at 6.84
    hand = phh.loads(imported[78].phh).replay()
    assert dict(zip(hand.players, hand.stacks, strict=True))["Deckhole @ 3URETjsK60"] == 684
    # hand 307 was dealt with a dead button: the seat before the small blind acts last
    assert 307 in imported


def test_rebuys_by_the_host_and_run_it_twice_in_a_second_night() -> None:
    # whitlock23's night: three players rebought 400 chips through the host after a hand
    result = import_log(_text("whitlock23_pglnMFhFI9KhboCBC09b_dE3b.csv.gz"))
    imported = {h.number: h for h in result.hands}
    for number, name, before in (
        (72, "hyq @ HZkdinonr0", 167),
        (96, "nw @ gTBoFhSFHs", 64),
        (109, "Nuo @ txW4Zv0Ud7", 32),
    ):
        hand = phh.loads(imported[number].phh).replay()
        assert dict(zip(hand.players, hand.stacks, strict=True))[name] == before
        # the next hand starts from the rebought stack
        following = phh.loads(imported[number + 1].phh)
        players = following.players or []
        assert following.starting_stacks[players.index(name)] == before + 400
    twice = [h.number for h in result.hands if phh.loads(h.phh).replay().second_board]
    assert twice == [8, 11, 37, 69, 136]


def test_straddles_in_a_real_log() -> None:
    # ahui21's 0.20/0.50 night: 22 imported hands with a 1.00 straddle, each replayed to the
    # stacks PokerNow printed next (the parametrized test above)
    result = import_log(_text("ahui21_pgljGheBAGUrRc9Fql_HCShCm.csv.gz"))
    straddled = {
        h.number: phh.loads(h.phh).blinds_or_straddles[:3]
        for h in result.hands
        if len([b for b in phh.loads(h.phh).blinds_or_straddles if b]) == 3
    }
    assert len(straddled) == 22 and set(map(tuple, straddled.values())) == {(20, 50, 100)}
    assert "posts a straddle of" in _text("ahui21_pgljGheBAGUrRc9Fql_HCShCm.csv.gz")
    twice = [h.number for h in result.hands if phh.loads(h.phh).replay().second_board]
    assert twice == [13, 35, 37, 54, 162, 165]


def test_a_hand_run_twice_keeps_both_boards() -> None:
    result = import_log(_text("drkyoda_pglDepIXhH9TNyXaFfbHYetk-.csv.gz"))
    boards = [phh.loads(h.phh).replay().second_board for h in result.hands]
    assert sum(1 for board in boards if board) == 10  # of the 12 the players ran twice
    twice = next(h for h in result.hands if h.number == 12)  # all in preflop, run twice
    hand = phh.loads(twice.phh).replay()
    assert " ".join(map(str, hand.board)) == "3h 7h 3s 5d 9c"
    assert " ".join(map(str, hand.second_board)) == "5s Qc Qh 8c Jh"
    # K Godel's sixes win both runs: 8.14 and 30.36 at the start of hand 13
    assert dict(zip(hand.players, hand.stacks, strict=True)) == {
        "Deckhole @ 3URETjsK60": 3036,
        "K Godel @ TN11URmFSv": 814,
        "Jean @ QLHzuQRo1C": 1650,
    }


def test_names_keep_the_pokernow_id_and_unshown_cards_stay_unknown() -> None:
    result = import_log(_text("charlestudor_input_log_002.csv"))
    second = phh.loads(result.hands[1].phh)
    assert second.players == [
        "@atsymbols@@@ @ 3mid0aO0hZ",
        "spa @ ces @ ZQfm6ZDMPO",
        "P1 @ eNVKMq2Tcb",
    ]
    assert "d dh p3 ????" in second.actions  # P1 folded: the log never shows those cards


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("hand,stack\n1,2\n", "line 1: not a PokerNow log"),
        ('entry,at,order\n"-- ending hand #1 --",2022-01-20T10:52:32.580Z,soon\n', "line 2:"),
        ("", "line 1: not a PokerNow log"),
    ],
)
def test_a_file_that_is_not_a_pokernow_log_names_its_first_bad_line(
    text: str, problem: str
) -> None:
    with pytest.raises(HandHistoryError, match=problem):
        import_log(text)


def test_convert_writes_one_phh_file_per_hand_named_by_its_number(tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    log.write_text(_text("charlestudor_input_log_002.csv"), encoding="utf-8")
    command = [sys.executable, "-m", "engine", "convert", str(log), "--from", "pokernow"]
    done = subprocess.run(
        [*command, "--to", "phh", "--out", str(tmp_path / "hands")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("imported 4 hands into")
    assert sorted(p.name for p in (tmp_path / "hands").iterdir()) == [
        f"hand-{n}.phh" for n in (1, 2, 3, 4)
    ]
    bad = subprocess.run([*command, "--to", "yaml"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "--from pokernow takes one LOG.csv" in bad.stderr


def test_the_newer_hand_line_with_its_id_reads_the_same() -> None:
    """PokerNow's newer logs start a hand with ``(id: ...)`` and the game unbracketed:
    ``-- starting hand #2 (id: abc)  No Limit Texas Hold'em (dealer: "..") --``. The real
    log, its hand lines rewritten that way, imports the same hands, each keeping its id."""
    older = _text("charlestudor_input_log_002.csv")
    newer = re.sub(
        r"-- starting hand #(\d+)  \(No Limit Texas Hold'em\)",
        r"-- starting hand #\1 (id: h\1x)  No Limit Texas Hold'em",
        older,
    )
    assert newer != older
    old_hands, new_hands = import_log(older).hands, import_log(newer).hands
    assert [h.pokernow_id for h in new_hands] == ["h1x", "h2x", "h3x", "h4x"]
    assert [h.phh.replace(f'pokernow_id = "{h.pokernow_id}"\n', "") for h in new_hands] == [
        h.phh for h in old_hands
    ]
