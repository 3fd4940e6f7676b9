"""Celery jobs of the learning records: recording a move's encounters and building reports.

Both are idempotent (see ``learning.encounters`` and ``learning.reports``), so a retry after a lost connection
or a worker killed mid-job (tasks are acknowledged late) never double-counts.
"""

from celery import shared_task
from django.db import OperationalError

from . import encounters, reports


@shared_task(name="learning.record_move", autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def record_move(move_id: int) -> int:
    return encounters.record_move(move_id)


@shared_task(name="learning.build_report")
def build_report(report_id: int) -> None:
    reports.build_report(report_id)
