"""A worker killed (kill -9) in the middle of importing a big file: once a worker is back, the job is failed (or
done), never "running" for ever, no staged rows are left, and the lexicon keeps serving the version it had."""

import time

import pytest
from django.test import Client

from lexicons import services
from lexicons.models import Entry, ImportJob, Lexicon
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
