"""Celery tasks of the lexicons app."""

from celery import shared_task

from lexicons import services


@shared_task(name="lexicons.run_import")
def run_import(job_id: int) -> None:
    """Run an upload's import job; progress and the outcome are recorded on the ImportJob row."""
    services.run_import_job(job_id)
