"""Long background jobs give way to live play (``config.yielding``): while a table is playing, a lexicon import and
a report pause between their batches, working at most ``BACKGROUND_SHARE_DURING_PLAY`` of the time; with no table
playing they never pause."""

from datetime import timedelta

import pytest
from django.utils import timezone

from config import yielding
from config.yielding import MAX_PAUSE, Yielding, play_is_live
from games.models import Table
from learning import reports
from learning.models import Report
from lexicons import services as lexicon_services
from lexicons.models import ImportJob, Lexicon
from tests.learning import encounter_factory as f

pytestmark = pytest.mark.django_db


class Clock:
    """A job's clock: a test moves it on by each batch's time, and each pause takes what it asked for."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def paced(clock: Clock, live: bool, *, share: float = 0.25, time_limit: float = 600) -> Yielding:
    return Yielding(time_limit, share=share, live=lambda: live, sleep=clock.sleep, clock=clock)


def test_while_play_is_live_a_job_works_at_most_its_share_of_the_time():
    clock = Clock()
    job = paced(clock, live=True, share=0.25)
    for batch in (1.0, 0.5, 2.0):
        clock.now += batch
        job.batch_done()
    assert clock.slept == [3.0, 1.5, 6.0]
    assert 3.5 / clock.now == pytest.approx(0.25)


def test_with_no_play_or_a_whole_share_a_job_never_pauses():
    for live, share in ((False, 0.25), (True, 1.0)):
        clock = Clock()
        job = paced(clock, live=live, share=share)
        clock.now += 5
        job.batch_done()
        assert (clock.slept, job.paused) == ([], 0)


def test_pauses_are_bounded_each_and_in_all_so_pausing_alone_never_makes_a_job_fail():
    clock = Clock()
    job = paced(clock, live=True, share=0.01, time_limit=100)  # at most 50 s of pauses in all
    clock.now += 20  # a slow batch: 99 × 20 s asked for
    job.batch_done()
    clock.now += 20
    job.batch_done()
    clock.now += 20
    job.batch_done()
    assert clock.slept == [MAX_PAUSE, 50 - MAX_PAUSE]
    assert job.paused == 50


def test_play_is_live_while_a_table_of_a_running_lesson_has_moved_within_the_window(classroom, pupils, settings):
    assert not play_is_live()
    table = f.start_lesson(classroom, pupils)
    assert play_is_live()

    Table.objects.filter(pk=table.pk).update(updated=timezone.now() - timedelta(seconds=settings.LIVE_PLAY_WINDOW + 5))
    assert not play_is_live()  # nobody has moved for a while
    Table.objects.filter(pk=table.pk).update(updated=timezone.now())
    assert play_is_live()

    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert not play_is_live()
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    table.lesson.ended = timezone.now()
    table.lesson.save()
    assert not play_is_live()


@pytest.fixture
def counted(monkeypatch, settings):
    """Every Yielding a job makes, with its real pauses (short here: a test's batches take milliseconds). The jobs
    run as on a worker (the tests' settings run Celery eagerly, where a job never pauses)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    made: list[Yielding] = []
    init = Yielding.__init__

    def recording(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(yielding.Yielding, "__init__", recording)
    return made


@pytest.mark.parametrize("playing", [True, False])
def test_a_lexicon_import_pauses_between_batches_only_while_tables_play(
    classroom, pupils, tmp_path, monkeypatch, counted, playing
):
    if playing:
        f.start_lesson(classroom, pupils)
    monkeypatch.setattr(lexicon_services, "COPY_BATCH_SIZE", 2)
    monkeypatch.setattr(lexicon_services, "BATCH_SIZE", 2)
    path = tmp_path / "words.txt"
    path.write_text("".join(f"{word}\n" for word in ["gato", "perro", "casa", "mesa", "luna", "sol"]), encoding="utf-8")
    lexicon = Lexicon.objects.create(name="Palabras", language="spa")
    job = ImportJob.objects.create(lexicon=lexicon, format="words", files=[str(path)])

    lexicon_services.run_import_job(job.pk)

    job.refresh_from_db()
    assert (job.status, job.entries_done) == ("done", 6)
    [pacing] = counted
    assert pacing.pauses == (4 if playing else 0)  # after each of the 3 batches, and after the last progress
    assert (pacing.paused > 0) == playing


@pytest.mark.parametrize("playing", [True, False])
def test_a_class_report_pauses_between_students_only_while_tables_play(classroom, pupils, teacher, counted, playing):
    f.record(f.start_lesson(classroom, pupils), [f.played(0, "ἄρτον", "ΑΡΤΟΝ", "ἄρτος")])
    if not playing:
        Table.objects.update(status=Table.Status.FINISHED)
    report = Report.objects.create(scope="class", classroom=classroom, requested_by=teacher)

    reports.build_report(report.pk)

    report.refresh_from_db()
    assert (report.status, report.children.count()) == ("done", 2)
    [pacing] = counted
    assert pacing.pauses == (2 if playing else 0)  # after each student's report is written


def test_a_job_run_eagerly_inside_a_web_request_never_pauses(classroom, pupils, teacher, counted, settings):
    """No broker (``make run``): the job runs in the request that asked for it, on a thread other pages wait for."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    f.record(f.start_lesson(classroom, pupils), [f.played(0, "ἄρτον", "ΑΡΤΟΝ", "ἄρτος")])
    report = Report.objects.create(scope="class", classroom=classroom, requested_by=teacher)

    reports.build_report(report.pk)

    assert play_is_live()
    [pacing] = counted
    assert (pacing.share, pacing.pauses) == (1.0, 0)
