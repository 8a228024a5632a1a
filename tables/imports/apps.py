from django.apps import AppConfig


class ImportsConfig(AppConfig):
    name = "tables.imports"
    label = "imports"
    verbose_name = "Imported games"
