from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tables.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables.selectors import banners, chips
        from tables.services import hooks
        from tables.tournaments import level, selectors
        from tables.tournaments.services import play

        hooks.register(hooks.table_rules, play.table_rules)
        hooks.register(hooks.hand_starting, play.before_hand)
        hooks.register(hooks.hand_ended, play.after_hand)
        hooks.register(hooks.croupier_pass, play.croupier_pass)
        banners.register(level.table_banner)
        chips.register_holder(selectors.chips_held)
        banners.register_seating_notice(level.table_seating_notice)
