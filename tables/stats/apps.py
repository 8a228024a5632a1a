from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "tables.stats"
    label = "stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        from tables.imports import hooks as import_hooks
        from tables.services import hooks
        from tables.stats import player_hands, pokernow

        # Every finished hand leaves one row per player for the statistics to add up.
        hooks.register(hooks.hand_finished, player_hands.player_hands_record)
        # An imported game's figures are counted once, as it comes in.
        hooks.register(import_hooks.hands_imported, pokernow.record_import_figures)
        # ... and shown on the import's own page as on the stats page.
        hooks.register(import_hooks.import_figures, pokernow.import_page_figures)
