"""Long jobs have time limits: past the soft limit a job is marked failed with a message naming the limit, never
left running."""

from unittest import mock

import pytest
from celery.exceptions import SoftTimeLimitExceeded

from learning import reports
from learning.models import Report
from learning.tasks import build_report
from lexicons import services as lexicon_services
from lexicons.models import ImportJob, Lexicon
from lexicons.tasks import run_import

pytestmark = pytest.mark.django_db


def test_both_jobs_declare_soft_and_hard_limits(settings):
    assert run_import.soft_time_limit == settings.LEXICON_IMPORT_TIME_LIMIT
    assert run_import.time_limit > run_import.soft_time_limit
    assert build_report.soft_time_limit == settings.REPORT_TIME_LIMIT
    assert build_report.time_limit > build_report.soft_time_limit


def test_a_report_past_its_limit_is_marked_failed_with_the_limit(classroom):
    report = Report.objects.create(scope=Report.Scope.CLASS, classroom=classroom)
    with mock.patch.object(reports, "compute", side_effect=SoftTimeLimitExceeded()):
        reports.build_report(report.pk)
    report.refresh_from_db()
    assert report.status == Report.Status.FAILED
    assert "limit of 10 minutes" in report.error_message


def test_an_import_past_its_limit_is_marked_failed_with_the_limit(teacher, tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("casa\nperro\n", encoding="utf-8")
    lexicon = Lexicon.objects.create(name="Mis palabras", language="spa", owner=teacher)
    job = ImportJob.objects.create(lexicon=lexicon, format="words", files=[str(path)])
    with mock.patch.object(lexicon_services, "import_lexicon", side_effect=SoftTimeLimitExceeded()):
        lexicon_services.run_import_job(job.pk)
    job.refresh_from_db()
    assert job.status == ImportJob.Status.FAILED
    assert "limit of 20 minutes" in job.error_message
