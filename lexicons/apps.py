from django.apps import AppConfig


class LexiconsConfig(AppConfig):
    name = "lexicons"
