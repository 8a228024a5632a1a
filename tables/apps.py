from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Poker tables"
    default_auto_field = "django.db.models.BigAutoField"
