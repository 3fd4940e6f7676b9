"""At most ``BACKGROUND_JOBS_AT_ONCE`` long jobs (imports, reports) run at once (``config.yielding.take_slot``), so a
worker always keeps a process free for play's short tasks: a job that finds every slot taken stays queued, tells
the sweep it is not lost, and is sent again; a job whose worker died holds no slot."""

from datetime import timedelta

import pytest
from celery.exceptions import Retry
from django.utils import timezone

from config.yielding import NoSlot, running_long_jobs, take_slot
from learning import reports
from learning import services as learning_services
from learning import tasks as learning_tasks
from learning.models import Report
from lexicons import tasks as lexicon_tasks
from lexicons.models import ImportJob, Lexicon
from tests.learning import encounter_factory as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def on_a_worker(settings):
    """The jobs run as on a worker with one slot (the tests' settings run Celery eagerly, where every job has one)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.BACKGROUND_JOBS_AT_ONCE = 1


@pytest.fixture
def words(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("gato\nperro\ncasa\n", encoding="utf-8")
    return path


def running_import(beat_seconds_ago: float) -> ImportJob:
    """An import another worker is running, its last heartbeat that long ago."""
    lexicon = Lexicon.objects.create(name=f"Otra {beat_seconds_ago}", language="spa")
    return ImportJob.objects.create(
        lexicon=lexicon,
        format="words",
        files=[],
        status=ImportJob.Status.RUNNING,
        heartbeat=timezone.now() - timedelta(seconds=beat_seconds_ago),
    )


def class_report(classroom, pupils, teacher) -> Report:
    f.record(f.start_lesson(classroom, pupils), [f.played(0, "ἄρτον", "ΑΡΤΟΝ", "ἄρτος")])
    return Report.objects.create(scope="class", classroom=classroom, requested_by=teacher)


def test_a_report_waits_queued_while_every_slot_is_taken_then_runs_once_one_is_free(
    classroom, pupils, teacher, on_a_worker, monkeypatch
):
    other = running_import(beat_seconds_ago=1)
    report = class_report(classroom, pupils, teacher)

    with pytest.raises(NoSlot):
        reports.build_report(report.pk)

    report.refresh_from_db()
    assert (report.status, report.percent, report.children.count()) == ("queued", 0, 0)
    assert report.heartbeat is not None  # it was tried: the sweep does not send it again as lost
    sent: list[int] = []
    monkeypatch.setattr(learning_services, "_send_report", sent.append)
    report.created -= timedelta(hours=1)
    report.save(update_fields=["created"])
    learning_services.sweep_reports()
    assert sent == []

    ImportJob.objects.filter(pk=other.pk).update(status=ImportJob.Status.DONE)
    reports.build_report(report.pk)

    report.refresh_from_db()
    assert (report.status, report.children.count()) == ("done", 2)


def test_an_import_waits_queued_while_every_slot_is_taken_and_its_task_is_sent_again(
    classroom, pupils, teacher, words, on_a_worker, settings
):
    """The task asks Celery to send it again after ``BACKGROUND_SLOT_WAIT`` (called directly, Celery's retry raises
    its ``Retry``); nothing of the import has started."""
    busy = class_report(classroom, pupils, teacher)
    Report.objects.filter(pk=busy.pk).update(status=Report.Status.RUNNING, heartbeat=timezone.now())
    lexicon = Lexicon.objects.create(name="Palabras", language="spa")
    job = ImportJob.objects.create(lexicon=lexicon, format="words", files=[str(words)])

    with pytest.raises(Retry):
        lexicon_tasks.run_import(job.pk)

    job.refresh_from_db()
    assert (job.status, job.staged_version, job.heartbeat is not None) == ("queued", None, True)
    assert words.exists()  # the upload is kept for the run to come

    Report.objects.filter(pk=busy.pk).update(status=Report.Status.DONE)
    lexicon_tasks.run_import(job.pk)
    job.refresh_from_db()
    assert (job.status, job.entries_done) == ("done", 3)


def test_a_report_task_is_sent_again_while_every_slot_is_taken(classroom, pupils, teacher, on_a_worker):
    running_import(beat_seconds_ago=1)
    report = class_report(classroom, pupils, teacher)
    with pytest.raises(Retry):
        learning_tasks.build_report(report.pk)
    report.refresh_from_db()
    assert report.status == "queued"


def test_a_job_whose_worker_went_silent_holds_no_slot(classroom, pupils, teacher, on_a_worker, settings):
    running_import(beat_seconds_ago=settings.IMPORT_HEARTBEAT_TIMEOUT + 5)
    assert running_long_jobs() == 0
    report = class_report(classroom, pupils, teacher)

    reports.build_report(report.pk)

    report.refresh_from_db()
    assert report.status == "done"


def test_the_slots_are_counted_over_imports_and_reports_together(classroom, pupils, teacher, on_a_worker, settings):
    settings.BACKGROUND_JOBS_AT_ONCE = 2
    running_import(beat_seconds_ago=1)
    claims: list[str] = []
    assert take_slot(lambda: claims.append("second") is None, waiting=lambda: None) is True
    busy = class_report(classroom, pupils, teacher)
    Report.objects.filter(pk=busy.pk).update(status=Report.Status.RUNNING, heartbeat=timezone.now())
    assert running_long_jobs() == 2
    with pytest.raises(NoSlot):
        take_slot(lambda: claims.append("third") is None, waiting=lambda: None)
    assert claims == ["second"]  # a claim is made only with a slot free


def test_a_message_for_a_report_already_running_elsewhere_claims_nothing(classroom, pupils, teacher, on_a_worker):
    """Sent twice (the sweep, or a redelivery): the copy that comes while the report runs leaves it alone."""
    report = class_report(classroom, pupils, teacher)
    Report.objects.filter(pk=report.pk).update(status=Report.Status.RUNNING, heartbeat=timezone.now(), percent=40)

    reports.build_report(report.pk)

    report.refresh_from_db()
    assert (report.status, report.percent) == ("running", 40)


def test_run_eagerly_every_job_has_a_slot(classroom, pupils, teacher, settings):
    """No broker (``make run``): the job runs in the request that asked for it, which cannot wait to be sent again."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BACKGROUND_JOBS_AT_ONCE = 1
    running_import(beat_seconds_ago=1)
    report = class_report(classroom, pupils, teacher)

    reports.build_report(report.pk)

    report.refresh_from_db()
    assert report.status == "done"


def test_a_message_for_an_import_already_running_elsewhere_returns_at_once(on_a_worker):
    """Even with every slot taken (by that very import): it is not sent again and again while the import runs."""
    job = running_import(beat_seconds_ago=1)

    lexicon_tasks.run_import(job.pk)

    job.refresh_from_db()
    assert job.status == "running"
