"""The learning jobs through a real Celery worker on the real Redis (as ``tests/test_real_services.py`` does):
a move's recording and a class report, each enqueued on commit and run by the worker, not in-process."""

import os
import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import transaction

from config.celery import app as celery_app
from games.rules import GAMES
from learning import services
from learning.models import Encounter, Report
from tests.learning import encounter_factory as f

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _forget_broker_connections() -> None:
    """An eager task run earlier in this process (eager runs still take a producer) left the app's connection and
    producer pools on the memory:// broker; messages sent through them would never reach the worker. Celery
    itself drops them this way after a fork."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def worker(monkeypatch):
    monkeypatch.setitem(GAMES, f.SLUG, f.RULES)
    saved = {key: celery_app.conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    celery_app.conf.update(broker_url=REDIS_URL, result_backend=REDIS_URL, task_always_eager=False)
    _forget_broker_connections()
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
            yield
    finally:
        celery_app.conf.update(saved)
        _forget_broker_connections()


def _wait_for(check, timeout: float = 30.0):
    """Poll until ``check()`` is truthy: the worker runs in another thread, on its own database connection."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("the worker did not finish in time")


def test_a_move_is_recorded_and_the_lesson_report_built_by_the_worker(worker, classroom, student, teacher):
    table = f.start_lesson(classroom, [student], f.make_lexicon())
    with transaction.atomic():
        move = f.move(table, [f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος")])
        services.enqueue_recording(move)
    recorded = _wait_for(lambda: Encounter.objects.filter(move_id=move.pk).first())
    assert (recorded.student_id, recorded.gloss) == (student.pk, "word")

    report = services.lesson_ended(table.lesson_id)
    done = _wait_for(lambda: Report.objects.filter(pk=report.pk, status="done").first())
    assert done.figures["students"][0]["words_played"] == 1
    assert done.children.get().figures["words"][0]["form"] == "λόγον"
