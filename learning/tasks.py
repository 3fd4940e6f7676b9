"""Celery jobs of the learning records: recording a move's encounters and building reports.

Both are idempotent (see ``learning.encounters`` and ``learning.reports``), so a retry after a lost connection
or a worker killed mid-job (tasks are acknowledged late) never double-counts.
"""

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from config.yielding import NoSlot

from . import encounters, reports


@shared_task(name="learning.record_move", autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def record_move(move_id: int) -> int:
    return encounters.record_move(move_id)


# Past the soft limit the report is marked failed with a message; the hard limit ends a job that ignores it.
@shared_task(
    bind=True,
    name="learning.build_report",
    max_retries=None,  # sent again for as long as the slots are taken (each job is bounded in time)
    soft_time_limit=settings.REPORT_TIME_LIMIT,
    time_limit=settings.REPORT_TIME_LIMIT + 60,
)
def build_report(self, report_id: int) -> None:
    """While the long jobs' slots are all taken, the report stays queued and is sent again."""
    try:
        reports.build_report(report_id)
    except NoSlot:
        raise self.retry(countdown=settings.BACKGROUND_SLOT_WAIT) from None
