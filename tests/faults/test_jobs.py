"""A worker killed (kill -9) in the middle of importing a big file: once a worker is back, the job is failed (or
done), never "running" for ever, no staged rows are left, and the lexicon keeps serving the version it had."""

import time

import pytest
from django.test import Client
from django.utils import timezone

from config.celery import app as celery_app
from lexicons import services
from lexicons.models import Entry, ImportJob, Lexicon
from tests.conftest import needs_postgresql
from tests.faults.conftest import FAST_JOBS, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.timeout(150)]

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def big_word_list(path, count: int) -> None:
    """``count`` distinct made-up words of letters only (five letters each, base 26)."""
    words = []
    for n in range(count):
        word = ""
        for _ in range(5):
            n, digit = divmod(n, 26)
            word += LETTERS[digit]
        words.append(word)
    path.write_text("\n".join(words) + "\n", encoding="utf-8")


def test_an_import_whose_worker_is_killed_ends_failed_with_no_staged_rows(
    worker, celery_on, teacher, tmp_path, settings
):
    lexicon = Lexicon.objects.create(name="Mis palabras", language="spa", owner=teacher)
    small = tmp_path / "small.txt"
    small.write_text("casa\nperro\n", encoding="utf-8")
    services.import_lexicon(lexicon, "words", [small])
    lexicon.refresh_from_db()
    version = lexicon.version

    upload = tmp_path / "big.txt"
    big_word_list(upload, 500_000)  # long enough on PostgreSQL too to be killed mid-way
    worker.start()
    job = services.start_import(lexicon, "words", [str(upload)], teacher)

    def staging() -> int | None:
        job.refresh_from_db()
        running = job.status == ImportJob.Status.RUNNING and job.staged_version
        if running and Entry.objects.filter(lexicon=lexicon, version=job.staged_version).exists():
            return job.staged_version
        return None

    staged = wait_until(staging, 60, "the worker to be writing the big file's rows", every=0.05)
    worker.kill()  # kill -9, mid-import
    job.refresh_from_db()
    assert job.status == ImportJob.Status.RUNNING, "the kill came too late: the import had already finished"

    # The worker comes back after its heartbeat timeout: starting, it reaps the job its predecessor left running.
    time.sleep(FAST_JOBS["IMPORT_HEARTBEAT_TIMEOUT"] + 0.5)
    worker.start()

    def ended() -> bool:
        job.refresh_from_db()
        return job.status in (ImportJob.Status.FAILED, ImportJob.Status.DONE)

    wait_until(ended, 30, "the killed import to be failed or done")
    assert job.status == ImportJob.Status.FAILED
    assert "went away" in job.error_message
    assert not Entry.objects.filter(lexicon=lexicon, version=staged).exists(), "staged rows were left behind"
    lexicon.refresh_from_db()
    assert lexicon.version == version
    assert lexicon.is_usable
    assert Entry.objects.filter(lexicon=lexicon).count() == 2

    # The progress page says so, and the lexicon can be replaced again (the job no longer blocks it).
    client = Client()
    client.force_login(teacher)
    status = client.get(f"/lexicons/imports/{job.pk}/status/").json()
    assert (status["status"], status["finished"]) == ("failed", True)
    settings.IMPORT_HEARTBEAT_TIMEOUT = FAST_JOBS["IMPORT_HEARTBEAT_TIMEOUT"]
    again = services.start_import(lexicon, "words", [str(small)], teacher)
    wait_until(lambda: ImportJob.objects.get(pk=again.pk).status == ImportJob.Status.DONE, 30, "a new import to run")


@needs_postgresql("two worker processes write at once; SQLite takes one writer (and with it jobs run eagerly)")
def test_long_jobs_leave_a_worker_process_free_for_play(worker, celery_on, teacher, tmp_path):
    """A worker of two processes with one slot for the long jobs: of two imports asked for at once, one runs and the
    other waits queued (tried, and sent again), so a short task is answered by the free process while the import
    runs; then the second runs. Never both at once."""
    lexicons, paths = [], []
    for n in range(2):
        paths.append(tmp_path / f"big-{n}.txt")
        big_word_list(paths[n], 300_000)
        lexicons.append(Lexicon.objects.create(name=f"Lista {n}", language="spa", owner=teacher))
    worker.start(processes=2, jobs={"BACKGROUND_JOBS_AT_ONCE": 1, "BACKGROUND_SLOT_WAIT": 1})
    jobs = [
        services.start_import(lexicon, "words", [str(path)], teacher)
        for lexicon, path in zip(lexicons, paths, strict=True)
    ]
    ids = [job.pk for job in jobs]
    seen: set[tuple[str, ...]] = set()

    def statuses() -> dict[int, ImportJob]:
        found = {job.pk: job for job in ImportJob.objects.filter(pk__in=ids)}
        seen.add(tuple(sorted(job.status for job in found.values())))
        return found

    def one_runs_one_waits() -> ImportJob | None:
        found = statuses()
        running = [job for job in found.values() if job.status == ImportJob.Status.RUNNING]
        waiting = [job for job in found.values() if job.status == ImportJob.Status.QUEUED and job.heartbeat]
        return running[0] if running and waiting else None

    first = wait_until(one_runs_one_waits, 60, "one import running while the other waits for its slot", every=0.05)
    assert celery_app.send_task("logos.ping").get(timeout=30) == "pong"  # the free process
    answered = timezone.now()

    def both_done() -> bool:
        return all(job.status == ImportJob.Status.DONE for job in statuses().values())

    wait_until(both_done, 120, "both imports to be done", every=0.05)
    first.refresh_from_db()
    assert first.finished > answered, "the short task waited for the running import"
    assert ("running", "running") not in seen
    assert [job.entries_done for job in ImportJob.objects.filter(pk__in=ids)] == [300_000, 300_000]
