"""Celery tasks of the lexicons app."""

from celery import shared_task
from django.conf import settings

from config.yielding import NoSlot
from lexicons import services


# Past the soft limit the job is marked failed with a message; the hard limit ends a job that ignores it.
@shared_task(
    bind=True,
    name="lexicons.run_import",
    max_retries=None,  # sent again for as long as the slots are taken (each job is bounded in time)
    soft_time_limit=settings.LEXICON_IMPORT_TIME_LIMIT,
    time_limit=settings.LEXICON_IMPORT_TIME_LIMIT + 60,
)
def run_import(self, job_id: int) -> None:
    """Run an upload's import job; progress and the outcome are recorded on the ImportJob row. While the long jobs'
    slots are all taken, it stays queued and is sent again."""
    try:
        services.run_import_job(job_id)
    except NoSlot:
        raise self.retry(countdown=settings.BACKGROUND_SLOT_WAIT) from None
