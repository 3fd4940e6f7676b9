"""A job whose worker died is seen as dead (marked failed, its staged rows gone, the lexicon replaceable again);
a job whose message was lost while the broker was down is sent again; a message delivered twice runs once."""

from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.utils import timezone

from learning import services as learning_services
from learning.models import Report
from lexicons import services
from lexicons.models import Entry, ImportJob, Lexicon

pytestmark = pytest.mark.django_db


@pytest.fixture
def lexicon(teacher, tmp_path):
    words = tmp_path / "old.txt"
    words.write_text("casa\nperro\n", encoding="utf-8")
    lexicon = Lexicon.objects.create(name="Mis palabras", language="spa", owner=teacher)
    services.import_lexicon(lexicon, "words", [words])
    lexicon.refresh_from_db()
    return lexicon


def a_dead_import(lexicon, tmp_path) -> ImportJob:
    """What kill -9 leaves mid-import: the job running with its rows staged under a new version, gone silent."""
    staged = services._claim_version(lexicon)
    Entry.objects.create(lexicon=lexicon, version=staged, form="gato", key="GATO")
    files = tmp_path / "new.txt"
    files.write_text("gato\n", encoding="utf-8")
    long_ago = timezone.now() - timedelta(minutes=10)
    return ImportJob.objects.create(
        lexicon=lexicon,
        format="words",
        files=[str(files)],
        status=ImportJob.Status.RUNNING,
        heartbeat=long_ago,
        staged_version=staged,
        created_by=lexicon.owner,
    )


def test_a_silent_running_import_is_failed_and_its_staged_rows_removed(lexicon, tmp_path):
    job = a_dead_import(lexicon, tmp_path)
    services.sweep_imports()
    job.refresh_from_db()
    assert job.status == ImportJob.Status.FAILED
    assert "worker running it went away" in job.error_message
    assert not Entry.objects.filter(lexicon=lexicon, version=job.staged_version).exists()
    lexicon.refresh_from_db()
    assert lexicon.is_usable  # still serving the version it had
    assert Entry.objects.filter(lexicon=lexicon, version=lexicon.version).count() == 2


def test_a_running_import_with_a_recent_heartbeat_is_left_alone(lexicon, tmp_path):
    job = a_dead_import(lexicon, tmp_path)
    ImportJob.objects.filter(pk=job.pk).update(heartbeat=timezone.now())
    services.sweep_imports()
    job.refresh_from_db()
    assert job.status == ImportJob.Status.RUNNING


def test_the_dead_jobs_redelivered_message_does_nothing(lexicon, tmp_path):
    job = a_dead_import(lexicon, tmp_path)
    services.sweep_imports()
    services.run_import_job(job.pk)  # the broker redelivers the killed worker's message
    job.refresh_from_db()
    assert job.status == ImportJob.Status.FAILED


def test_a_message_delivered_twice_runs_the_import_once(lexicon, tmp_path):
    files = tmp_path / "new.txt"
    files.write_text("gato\n", encoding="utf-8")
    job = ImportJob.objects.create(lexicon=lexicon, format="words", files=[str(files)])
    with mock.patch.object(services, "import_lexicon", wraps=services.import_lexicon) as runs:
        services.run_import_job(job.pk)
        services.run_import_job(job.pk)
    assert runs.call_count == 1


def test_the_progress_page_reaps_a_dead_job_so_it_can_be_retried(client, teacher, lexicon, tmp_path):
    job = a_dead_import(lexicon, tmp_path)
    client.force_login(teacher)
    status = client.get(f"/lexicons/imports/{job.pk}/status/").json()
    assert status["status"] == "failed"
    assert status["finished"] is True


def test_an_import_queued_while_the_broker_was_down_is_sent_again(lexicon, tmp_path, settings):
    files = tmp_path / "new.txt"
    files.write_text("gato\n", encoding="utf-8")
    job = ImportJob.objects.create(lexicon=lexicon, format="words", files=[str(files)])
    ImportJob.objects.filter(pk=job.pk).update(created=timezone.now() - timedelta(minutes=5))
    with mock.patch("lexicons.tasks.run_import.delay") as delay:
        services.sweep_imports()
        services.sweep_imports()  # sent once, not on every poll
    delay.assert_called_once_with(job.pk)


def test_a_queued_report_is_sent_again_only_once_its_last_sending_is_old_enough(classroom, settings):
    settings.JOB_RESEND_AFTER = 60
    now = timezone.now()
    new = Report.objects.create(scope=Report.Scope.CLASS, classroom=classroom)
    sent_lately = Report.objects.create(scope=Report.Scope.CLASS, classroom=classroom)
    sent_long_ago = Report.objects.create(scope=Report.Scope.CLASS, classroom=classroom)
    done = Report.objects.create(scope=Report.Scope.CLASS, classroom=classroom, status=Report.Status.DONE)
    Report.objects.exclude(pk=new.pk).update(created=now - timedelta(minutes=5))
    Report.objects.filter(pk=sent_lately.pk).update(heartbeat=now - timedelta(seconds=30))
    Report.objects.filter(pk__in=[sent_long_ago.pk, done.pk]).update(heartbeat=now - timedelta(seconds=90))
    with mock.patch("learning.tasks.build_report.delay") as delay:
        learning_services.sweep_reports()
    delay.assert_called_once_with(sent_long_ago.pk)
    sent_long_ago.refresh_from_db()
    assert sent_long_ago.heartbeat >= now  # when it was sent again: the next sweep waits from here


def test_publishing_while_the_broker_is_down_keeps_the_job_queued(lexicon, caplog):
    with mock.patch("lexicons.tasks.run_import.delay", side_effect=ConnectionError("broker down")):
        services._send(123)
    assert "stays queued" in caplog.text


def test_a_report_queued_while_the_broker_was_down_is_sent_again(classroom):
    report = Report.objects.create(scope=Report.Scope.CLASS, classroom=classroom)
    Report.objects.filter(pk=report.pk).update(created=timezone.now() - timedelta(minutes=5))
    with mock.patch("learning.tasks.build_report.delay") as delay:
        learning_services.sweep_reports()
        learning_services.sweep_reports()
    delay.assert_called_once_with(report.pk)


def test_a_report_whose_worker_died_is_built_again(classroom):
    report = Report.objects.create(
        scope=Report.Scope.CLASS,
        classroom=classroom,
        status=Report.Status.RUNNING,
        heartbeat=timezone.now() - timedelta(minutes=10),
    )
    with mock.patch("learning.tasks.build_report.delay") as delay:
        learning_services.sweep_reports()
    delay.assert_called_once_with(report.pk)
    report.refresh_from_db()
    assert report.status == Report.Status.QUEUED


def test_removed_files_do_not_matter_to_the_reaper(lexicon, tmp_path):
    job = a_dead_import(lexicon, tmp_path)
    for path in job.files:
        Path(path).unlink()
    services.sweep_imports()
    job.refresh_from_db()
    assert job.status == ImportJob.Status.FAILED
