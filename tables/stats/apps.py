from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "tables.stats"
    label = "stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        from tables.services import hooks
        from tables.stats import player_hands

        # Every finished hand leaves one row per player for the statistics to add up.
        hooks.register(hooks.hand_finished, player_hands.player_hands_record)
