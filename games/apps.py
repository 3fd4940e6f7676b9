from typing import Any

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from learning.signals import student_removed

        student_removed.connect(_release_seats, dispatch_uid="games.release_seats")


def _release_seats(sender: Any, student_id: int, teacher: Any, **kwargs: Any) -> None:
    from games.services import moderation

    moderation.release_seats_of(student_id, teacher)
