# The deck and the seed move out of Hand into a model of its own (issue 15, item 2): as fields of
# Hand, Django admin's list filters could be asked about them (?seed__startswith=...), which
# recovered a running hand's seed and every hole card.

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

BATCH = 500


def copy_to_secrets(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Hand = apps.get_model("tables", "Hand")
    HandSecret = apps.get_model("tables", "HandSecret")
    batch = []
    for hand_id, deck, seed in Hand.objects.values_list("pk", "deck", "seed").iterator(
        chunk_size=BATCH
    ):
        batch.append(HandSecret(hand_id=hand_id, deck=deck, seed=seed))
        if len(batch) == BATCH:
            HandSecret.objects.bulk_create(batch)
            batch.clear()
    HandSecret.objects.bulk_create(batch)


def copy_back_to_hands(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Hand = apps.get_model("tables", "Hand")
    HandSecret = apps.get_model("tables", "HandSecret")
    for secret in HandSecret.objects.iterator(chunk_size=BATCH):
        Hand.objects.filter(pk=secret.hand_id).update(deck=secret.deck, seed=secret.seed)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_table_hand_version"),
    ]

    operations = [
        migrations.CreateModel(
            name="HandSecret",
            fields=[
                (
                    "hand",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="tables.hand",
                    ),
                ),
                ("deck", models.JSONField()),
                ("seed", models.CharField(max_length=128)),
            ],
        ),
        migrations.RunPython(copy_to_secrets, copy_back_to_hands),
        # Defaults only so that going back can add the columns to existing rows before
        # copy_back_to_hands fills them in.
        migrations.AlterField(model_name="hand", name="deck", field=models.JSONField(default=list)),
        migrations.AlterField(
            model_name="hand", name="seed", field=models.CharField(default="", max_length=128)
        ),
        migrations.RemoveField(model_name="hand", name="deck"),
        migrations.RemoveField(model_name="hand", name="seed"),
    ]
