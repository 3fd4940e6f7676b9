"""The Celery application; tasks are found in each app's ``tasks.py``."""

import logging
import os
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from celery import Celery
from celery.signals import celeryd_init, worker_ready
from django.conf import settings
from django.db.models import Q, QuerySet

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("logos")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


def publish(task: Any, *args: Any, what: str) -> bool:
    """Send ``task`` a message with ``args``; False when the broker cannot take it. Never raises: every job records its
    state on its own row, and the sweeps (``lexicons.services.sweep_imports``, ``learning.services.sweep_reports``)
    or the lesson's end send again what was not sent."""
    try:
        task.delay(*args)
    except Exception as error:  # noqa: BLE001 - whatever the broker raises, the job is sent again later
        logger.warning("could not publish %s: %s", what, error)
        return False
    return True


def send_lost_again(jobs: QuerySet[Any], now: datetime, send: Callable[[int], object]) -> None:
    """``send`` again each of ``jobs`` (import jobs or reports: the same life, queued, running, then done or failed)
    still queued ``JOB_RESEND_AFTER`` seconds after it was made and after it was last sent again, its message lost
    while the broker was down. A queued job's heartbeat says when it was last sent again; each is claimed for
    sending with it first, so that two sweeps at once send it once."""
    queued = "queued"  # ImportJob.Status.QUEUED, Report.Status.QUEUED
    waiting = now - timedelta(seconds=settings.JOB_RESEND_AFTER)
    lost = jobs.filter(status=queued, created__lt=waiting).filter(Q(heartbeat__isnull=True) | Q(heartbeat__lt=waiting))
    for job_id in list(lost.values_list("pk", flat=True)):
        if jobs.filter(pk=job_id, status=queued).update(heartbeat=now):
            send(job_id)


@celeryd_init.connect
def yield_to_play(**kwargs: object) -> None:
    """A worker runs at a lower CPU priority (``CELERY_WORKER_NICE``, inherited by its pool's processes): a lexicon
    import or a class report uses the cores the live tables leave free, instead of delaying their moves."""
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
