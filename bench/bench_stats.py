"""Statistics time for a player with 10,000 finished hands.

Creates a throw-away test database (SQLite in memory unless ``DATABASE_URL`` says otherwise),
stores 10,000 hands played by the engine's random bots (bulk_create of hands, actions and
``PlayerHand`` rows), then times the stats query, the first page of the hand list, the net
curve of the stats page, and — for comparison — recomputing the stats by replaying every hand
through the engine. Usage: ``.venv/bin/python bench/bench_stats.py [hands]``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402


def best_of(fn, repeat: int = 5) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def play(rng, bot, config, stacks, button):
    from engine.cards import ALL_CARDS
    from engine.hand import Hand

    deck = list(range(len(ALL_CARDS)))
    rng.shuffle(deck)
    hand = Hand(config, stacks, button, deck)
    while not hand.is_over:
        hand.act(bot.decide(hand.view(hand.actor)))
    return hand, deck


def main(count: int) -> None:
    from django.utils import timezone

    from engine.bots import RandomBot
    from engine.hand import HandConfig
    from tables.models import Hand, HandAction, HandSecret, PlayerHand, Table
    from tables.selectors.hands import hand_state, with_actions, with_deck
    from tables.services import player_create
    from tables.stats.figures import Totals, seat_figures
    from tables.stats.player_hands import player_hands_rows
    from tables.stats.selectors import net_curve, player_hand_rows, player_stats

    rng = random.Random(2024)
    bot = RandomBot(rng)
    from django.contrib.auth import get_user_model

    users = [get_user_model().objects.create(username=f"bench{i}") for i in range(6)]
    players = [player_create(user=u) for u in users]
    table = Table.objects.create(name="Bench", max_seats=6)
    config = HandConfig(small_blind=1, big_blind=2)
    start = time.perf_counter()
    now = timezone.now()
    batch: list[tuple] = []

    def flush():
        hands = Hand.objects.bulk_create([h for h, _, _ in batch])
        HandSecret.objects.bulk_create(
            [HandSecret(hand=h, deck=h.secret_deck, seed="bench") for h in hands]
        )
        HandAction.objects.bulk_create([a for _, acts, _ in batch for a in acts])
        rows = []
        for hand, _, state in batch:
            rows.extend(player_hands_rows(hand, state))
        PlayerHand.objects.bulk_create(rows)
        batch.clear()
        return hands

    for number in range(1, count + 1):
        button = number % 6
        state, deck = play(rng, bot, config, [200] * 6, button)
        hand = Hand(
            table=table,
            number=number,
            status=Hand.Status.FINISHED,
            config=config.to_dict(),
            seats=[
                {"seat": i, "player_id": p.pk, "name": p.name, "stack": 200}
                for i, p in enumerate(players)
            ],
            button=button,
            button_seat=button,
            commitment="bench",
            result=state.result.to_dict(),
            pot=state.total_pot,
            finished_at=now,
        )
        hand.secret_deck = deck  # as hand_start leaves it; stored by flush()
        hand.started_at = now
        actions = [
            HandAction(hand=hand, index=i, seat=0, kind=a.kind, amount=a.amount)
            for i, a in enumerate(state.actions)
        ]
        batch.append((hand, actions, state))
        if len(batch) == 1000:
            flush()
    flush()
    print(f"stored {count} hands for 6 players in {time.perf_counter() - start:.1f} s")

    hero = players[0]
    t_stats, stats = best_of(lambda: player_stats(hero))
    t_page, _ = best_of(lambda: list(player_hand_rows(hero)[:50]))
    t_curve, curve = best_of(lambda: net_curve(hero))
    assert stats["hands"] == count and len(curve) == count

    from tables.stats.ev import hand_labels, net_and_ev_curves, player_ev_by_game

    def page_figures_without_ev():
        return player_stats(hero), net_curve(hero)

    def page_figures_with_ev():  # the stats page now: the EV by game, both curves, hovers
        curves = net_and_ev_curves(hero)
        marks = curves.hand_ids[:: max(1, len(curves.hand_ids) // 120)]
        return player_stats(hero), player_ev_by_game(hero), curves, hand_labels(marks)

    t_without, _ = best_of(page_figures_without_ev)
    t_with, _ = best_of(page_figures_with_ev)

    def replay_all():
        totals = Totals()
        for hand in with_actions(with_deck(Hand.objects.filter(table=table))):
            totals.add(seat_figures(hand_state(hand))[hand.seat_index_of(hero.pk)])
        return totals.stats()

    t_replay, replayed = best_of(replay_all, repeat=1)
    assert replayed == stats, (replayed, stats)
    print(f"player stats over {count} hands (one aggregate query): {t_stats * 1000:.1f} ms")
    print(f"hand list, first page of 50:                        {t_page * 1000:.1f} ms")
    print(f"net-chips curve ({count} points):                    {t_curve * 1000:.1f} ms")
    print(
        f"stats page figures without / with the all-in EV:     {t_without * 1000:.1f} / "
        f"{t_with * 1000:.1f} ms ({t_with / t_without:.2f}x)"
    )
    print(
        f"same stats by replaying every hand (no summary rows): {t_replay * 1000:.0f} ms "
        f"({t_replay / t_stats:.0f}x slower)"
    )
    print(f"hero: VPIP {stats['vpip']} PFR {stats['pfr']} bb/100 {stats['bb_per_100']}")


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        main(count)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
