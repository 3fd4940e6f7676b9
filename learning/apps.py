from django.apps import AppConfig


class LearningConfig(AppConfig):
    name = "learning"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from learning import services

        user_logged_out.connect(services.logged_out, dispatch_uid="learning.logged_out")
