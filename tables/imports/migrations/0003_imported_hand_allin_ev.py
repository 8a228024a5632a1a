from typing import Any

from django.db import migrations, models

from engine import phh


def fill_ev(apps: Any, schema_editor: Any) -> None:
    """The hands imported before the field: their EV from their stored PHH (left empty for a
    hand that no longer reads, as the import's page then says)."""
    from tables.imports.services import imported_ev_net

    ImportedHand = apps.get_model("imports", "ImportedHand")
    for hand in ImportedHand.objects.select_related("pokernow_import").iterator():
        try:
            history = phh.loads(hand.phh)
            ev = imported_ev_net(history, hand.pokernow_import.pokernow_name, hand.net)
        except ValueError:  # a PokerError among them: a file the engine no longer reads
            continue
        if ev is not None:
            ImportedHand.objects.filter(pk=hand.pk).update(ev_net=ev)


class Migration(migrations.Migration):
    dependencies = [
        ("imports", "0002_import_figures"),
    ]

    operations = [
        migrations.AddField(
            model_name="importedhand",
            name="ev_net",
            field=models.FloatField(
                blank=True,
                help_text="The player's all-in EV (the expected net at the all-in; the net "
                "without one), in the import's unit; empty when a hand at the all-in was never "
                "shown.",
                null=True,
            ),
        ),
        migrations.RunPython(fill_ev, migrations.RunPython.noop),
    ]
