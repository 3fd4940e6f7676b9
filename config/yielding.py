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
"""

import time
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

MAX_PAUSE = 30.0  # seconds: well inside the heartbeat timeouts (IMPORT_HEARTBEAT_TIMEOUT, REPORT_HEARTBEAT_TIMEOUT)


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
