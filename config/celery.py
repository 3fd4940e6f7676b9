"""The Celery application; tasks are found in each app's ``tasks.py``."""

import os

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("logos")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def sweep_jobs(**kwargs: object) -> None:
    """A worker (re)started: jobs whose worker died are marked failed or sent again, and jobs whose message was
    lost while the broker was down are sent again."""
    from learning.services import sweep_reports
    from lexicons.services import sweep_imports

    sweep_imports()
    sweep_reports()


@app.task(name="logos.ping", ignore_result=False)  # its answer is the point
def ping() -> str:
    """Health check for operators: ``celery -A config call logos.ping`` answers "pong" through the
    broker and result backend when a worker is up."""
    return "pong"
