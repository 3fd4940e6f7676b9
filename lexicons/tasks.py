"""Celery tasks of the lexicons app."""

from celery import shared_task
from django.conf import settings

from lexicons import services


# Past the soft limit the job is marked failed with a message; the hard limit ends a job that ignores it.
@shared_task(
    name="lexicons.run_import",
    soft_time_limit=settings.LEXICON_IMPORT_TIME_LIMIT,
    time_limit=settings.LEXICON_IMPORT_TIME_LIMIT + 60,
)
def run_import(job_id: int) -> None:
    """Run an upload's import job; progress and the outcome are recorded on the ImportJob row."""
    services.run_import_job(job_id)
