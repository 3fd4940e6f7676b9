"""The Celery application; tasks are found in each app's ``tasks.py``."""

import os

from celery import Celery
from celery.signals import celeryd_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("logos")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@celeryd_init.connect
def yield_to_play(**kwargs: object) -> None:
    """A worker runs at a lower CPU priority (``CELERY_WORKER_NICE``, inherited by its pool's processes): a lexicon
    import or a class report uses the cores the live tables leave free, instead of delaying their moves."""
    from django.conf import settings

    if settings.CELERY_WORKER_NICE > 0:
        os.nice(settings.CELERY_WORKER_NICE)


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
