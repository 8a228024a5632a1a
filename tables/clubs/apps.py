from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "tables.clubs"
    label = "clubs"
    verbose_name = "Clubs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables.clubs import access, schedule
        from tables.selectors import access as table_access
        from tables.services import hooks
        from tables.tournaments import access as tournament_access

        hooks.register(table_access.visibility_grants, access.member_tables)
        hooks.register(table_access.visibility_denials, access.club_tables_of_others)
        hooks.register(tournament_access.visibility_grants, access.member_tournaments)
        hooks.register(tournament_access.visibility_denials, access.club_tournaments_of_others)
        hooks.register(hooks.croupier_pass, schedule.open_due_games)
