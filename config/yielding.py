"""Long background jobs give way to live play: while tables are playing, they pause between their batches.

A Celery worker runs niced (``config.celery``), but that lowers only its own CPU priority. Its database work runs in
PostgreSQL's backends at full priority, and a lexicon import's writes fill the write-ahead log that every move's
commit must then flush to disk first: with an import under way, bench/live saw the moves' database time spent
mostly waiting on that flush (``pg_stat_activity``: IO / WALSync), and the move's median round trip rise from about
2× the echo's to 2.2×, where the echo, which touches no disk, barely moved.

So a job calls :meth:`Yielding.batch_done` after each batch. While play is live (a table of a lesson not ended has
had a move within ``settings.LIVE_PLAY_WINDOW`` seconds), it then sleeps long enough that it works at most
``settings.BACKGROUND_SHARE_DURING_PLAY`` of the time. A job thus runs slower during a lesson, never stops: a single
pause is at most ``MAX_PAUSE`` seconds (the job's heartbeat is older by that much at most), and its pauses add up
to at most half of its time limit, so that pausing alone never makes it fail. A job run eagerly (no Celery broker)
never pauses.

A worker's pool also runs play's own short tasks: robot turns and the recording of a move's words. So at most
``settings.BACKGROUND_JOBS_AT_ONCE`` long jobs run at once (one fewer than a worker's processes by default), and
a worker always has a process free for them: were every process running an import or a report, which pause while
tables play and so last minutes, the robots would stop moving until one ended. A long job claims its place with
:func:`take_slot`; one that finds none stays queued and is sent again (:data:`settings.BACKGROUND_SLOT_WAIT`).
"""

import time
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

MAX_PAUSE = 30.0  # seconds: well inside the heartbeat timeouts (IMPORT_HEARTBEAT_TIMEOUT, REPORT_HEARTBEAT_TIMEOUT)
SLOTS_LOCK = 0x4C50_5354  # the PostgreSQL advisory lock that makes one claim at a time (take_slot)


def play_is_live() -> bool:
    """Whether a table of a lesson not yet ended has had a move within ``settings.LIVE_PLAY_WINDOW`` seconds. One
    small query: the lessons not ended, then their tables through the foreign key's index (no index on the table's
    ``updated``, which every move changes: an index there would cost every move more than this saves)."""
    from games.models import Table  # config is imported by every app; the games app is imported when asked

    since = timezone.now() - timedelta(seconds=settings.LIVE_PLAY_WINDOW)
    return Table.objects.filter(lesson__ended__isnull=True, status=Table.Status.PLAYING, updated__gte=since).exists()


class Yielding:
    """Paces one job: call :meth:`batch_done` after each of its batches (see the module's docstring)."""

    def __init__(
        self,
        time_limit: float,
        *,
        share: float | None = None,
        live: Callable[[], bool] | None = None,
        sleep: Callable[[float], None] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if share is None:
            # Run eagerly (no broker, as under ``make run``), a job runs inside the web request that asked for it,
            # on a thread other pages wait for: pausing would only hold them longer.
            share = 1.0 if settings.CELERY_TASK_ALWAYS_EAGER else settings.BACKGROUND_SHARE_DURING_PLAY
        self.share = share
        self._most = time_limit / 2  # seconds of pauses in all
        self.budget = self._most  # seconds of pauses left
        self.pauses = 0
        self._live = live or play_is_live
        self._sleep = sleep or time.sleep
        self._clock = clock or time.monotonic
        self._since = self._clock()

    def batch_done(self) -> None:
        """The batch since the last call is done: pause if play is live, for as long as the share asks."""
        worked = self._clock() - self._since
        if self.share < 1 and self.budget > 0 and self._live():
            pause = min(worked * (1 / self.share - 1), MAX_PAUSE, self.budget)
            self._sleep(pause)
            self.budget -= pause
            self.pauses += 1
        self._since = self._clock()

    @property
    def paused(self) -> float:
        """Seconds paused so far."""
        return self._most - self.budget


# -- the long jobs' slots ------------------------------------------------------------------------------------------
class NoSlot(Exception):
    """Every slot of the long jobs is taken: the job stays queued, to be sent again (see the module's docstring)."""


def running_long_jobs() -> int:
    """The imports and reports running now: those whose worker reported within its heartbeat timeout (a job whose
    worker died holds no slot, and the sweeps put it right)."""
    from learning.models import Report  # config is imported by every app; theirs are imported when asked
    from lexicons.models import ImportJob

    now = timezone.now()
    imports = ImportJob.objects.filter(
        status=ImportJob.Status.RUNNING, heartbeat__gte=now - timedelta(seconds=settings.IMPORT_HEARTBEAT_TIMEOUT)
    )
    reports = Report.objects.filter(
        status=Report.Status.RUNNING, heartbeat__gte=now - timedelta(seconds=settings.REPORT_HEARTBEAT_TIMEOUT)
    )
    return imports.count() + reports.count()


def take_slot(claim: Callable[[], bool], waiting: Callable[[], object]) -> bool:
    """Run ``claim``, the job's own step from queued to running (it returns False when the job is not its to run:
    done, or running elsewhere), if a slot is free; return what it returned. When
    ``settings.BACKGROUND_JOBS_AT_ONCE`` long jobs are running already, run ``waiting`` instead (the queued job's
    heartbeat, which tells the sweep that it is not lost) and raise :class:`NoSlot`. A job run eagerly (no broker:
    in the request that asked for it) always has a slot."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return claim()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # Claims are made one at a time, so that two jobs cannot both see the last slot free.
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [SLOTS_LOCK])
        if running_long_jobs() < settings.BACKGROUND_JOBS_AT_ONCE:
            return claim()
    waiting()
    raise NoSlot
