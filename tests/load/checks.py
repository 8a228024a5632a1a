"""Whole-database checks after a load test, straight in SQL (the servers' database)."""

from __future__ import annotations

import json

_AT_TOURNAMENT = (
    "EXISTS (SELECT 1 FROM tournaments_tournamenttable t WHERE t.table_id = {}.table_id)"
)


def _stacks_and_hands(db, tournament: bool) -> tuple[int, int]:
    """Stacks and chips in running hands at cash tables (or at tournament tables)."""
    where = ("" if tournament else "NOT ") + _AT_TOURNAMENT
    seat_stacks = {
        (t, p): s
        for t, p, s in db.sql(
            f"SELECT table_id, player_id, stack FROM tables_seat s WHERE {where.format('s')}"
        )
    }
    in_hands = 0
    for table_id, seats in db.sql(
        "SELECT table_id, seats FROM tables_hand h "
        f"WHERE status = 'running' AND {where.format('h')}"
    ):
        seats = json.loads(seats) if isinstance(seats, str) else seats
        start = sum(s["stack"] for s in seats)
        behind = sum(seat_stacks.get((table_id, s["player_id"]), 0) for s in seats)
        in_hands += start - behind
    return sum(seat_stacks.values()), in_hands


def chips(db) -> dict:
    """``tables.selectors.chips.chips_total`` in SQL: bankrolls, cash stacks and running
    hands, unpaid prize pools, grants; tournament chips in play and given out."""
    bankrolls = db.value("SELECT coalesce(sum(bankroll), 0) FROM tables_player")
    granted = db.value(
        "SELECT coalesce(sum(amount), 0) FROM tables_ledgerentry "
        "WHERE kind IN ('grant', 'admin_grant')"
    )
    pools = db.value("SELECT coalesce(sum(prize_pool), 0) FROM tournaments_tournament")
    prizes = db.value("SELECT coalesce(sum(prize), 0) FROM tournaments_entry")
    stacks, in_hands = _stacks_and_hands(db, tournament=False)
    tournament_stacks, tournament_in_hands = _stacks_and_hands(db, tournament=True)
    issued = db.value(
        "SELECT coalesce(sum(t.starting_stack * (1 + e.rebuys + e.reentries)), 0) "
        "FROM tournaments_entry e JOIN tournaments_tournament t ON t.id = e.tournament_id "
        "WHERE t.status = 'running'"
    )
    return {
        "bankrolls": bankrolls,
        "stacks": stacks,
        "in_hands": in_hands,
        "prize_pools": pools - prizes,
        "granted": granted,
        "tournament_chips": tournament_stacks + tournament_in_hands,
        "tournament_chips_issued": issued,
    }


def assert_chips_conserved(db) -> dict:
    totals = chips(db)
    play_chips = totals["bankrolls"] + totals["stacks"] + totals["in_hands"]
    assert play_chips + totals["prize_pools"] == totals["granted"], totals
    assert totals["tournament_chips"] == totals["tournament_chips_issued"], totals
    return totals


def assert_action_logs_sequential(db) -> dict[int, list[tuple]]:
    """Every hand's actions are numbered 0, 1, 2... with no gap and no repeat."""
    logs: dict[int, list[tuple]] = {}
    for row in db.sql(
        "SELECT hand_id, index, seat, kind, amount, source, created_at "
        "FROM tables_handaction ORDER BY hand_id, index"
    ):
        logs.setdefault(row[0], []).append(row[1:])
    for hand_id, actions in logs.items():
        indexes = [a[0] for a in actions]
        assert indexes == list(range(len(actions))), (hand_id, indexes)
    return logs


def hands_by_status(db) -> dict[str, int]:
    return dict(db.sql("SELECT status, count(*) FROM tables_hand GROUP BY status"))


def assert_finished_hands_paid_out(db) -> int:
    """Every finished hand has a result whose net chips sum to zero; voided ones a reason."""
    count = 0
    for hand_id, status, result, _pot in db.sql(
        "SELECT id, status, result, pot FROM tables_hand WHERE status <> 'running'"
    ):
        result = json.loads(result) if isinstance(result, str) else result
        assert result, (hand_id, status)
        if status == "voided":
            assert "voided" in result, (hand_id, result)
            continue
        assert sum(result["net"]) == 0, (hand_id, result["net"])
        assert result["awards"], (hand_id, result)
        count += 1
    return count
