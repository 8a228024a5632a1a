"""Migration 0004: the hands' decks and seeds move into HandSecret, and back when reversed."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tables", "0003_table_hand_version")]
AFTER = [("tables", "0004_hand_secret")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_existing_hands_keep_their_deck_and_seed():
    apps = migrate(BEFORE)
    try:
        Hand = apps.get_model("tables", "Hand")
        Table = apps.get_model("tables", "Table")
        table = Table.objects.create(name="Old")
        decks = {number: list(range(52))[number:] + list(range(52))[:number] for number in (1, 2)}
        for number, deck in decks.items():
            Hand.objects.create(
                table=table,
                number=number,
                config={},
                seats=[],
                button=0,
                button_seat=0,
                deck=deck,
                seed=f"seed-{number}",
                commitment=f"c-{number}",
            )

        apps = migrate(AFTER)
        Hand = apps.get_model("tables", "Hand")
        HandSecret = apps.get_model("tables", "HandSecret")
        moved = {
            Hand.objects.get(pk=secret.hand_id).number: (secret.deck, secret.seed)
            for secret in HandSecret.objects.all()
        }
        assert moved == {number: (deck, f"seed-{number}") for number, deck in decks.items()}
        assert not {"deck", "seed"} & {f.name for f in Hand._meta.get_fields()}

        apps = migrate(BEFORE)
        Hand = apps.get_model("tables", "Hand")
        back = {hand.number: (hand.deck, hand.seed) for hand in Hand.objects.all()}
        assert back == moved
    finally:
        # every app back to its latest (apps that depend on tables were unapplied too)
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
