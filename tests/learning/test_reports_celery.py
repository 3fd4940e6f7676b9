"""The learning jobs through a real Celery worker on the real Redis (as ``tests/test_real_services.py`` does):
a move's recording and a class report, each enqueued on commit and run by the worker, not in-process."""

import time

import pytest
from django.db import transaction

from games.rules import GAMES
from learning import services
from learning.models import Encounter, Report
from tests.learning import encounter_factory as f

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(monkeypatch, celery_worker_on_redis):
    monkeypatch.setitem(GAMES, f.SLUG, f.RULES)
    return celery_worker_on_redis


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
