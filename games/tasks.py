"""Celery jobs of the games: a robot's turn."""

from celery import shared_task

from games.services import robots


@shared_task(name="games.robot_turn", acks_late=True, ignore_result=True)
def robot_turn(table_id: int, version: int) -> bool:
    """Let the robots of a table act once on its state at ``version`` (nothing if it has moved on since)."""
    return robots.robot_turn(table_id, version)
