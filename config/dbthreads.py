"""Database calls from async code that do not queue behind each other on one thread.

Channels' ``database_sync_to_async`` is thread-sensitive: every call of a server process runs on the same single
thread, so every table of the process waits for every other table's move, snapshot and heartbeat, and for any slow
call among them (bench/live measured a move's p99 at 740 ms when other work shared the cores, against 15 ms for a
bare echo). The table consumer's calls are self-contained (each opens and commits its own transaction), so they run
instead on a bounded thread pool of their own, :data:`settings.DATABASE_THREADS` threads, each call taking a
connection from the process's PostgreSQL pool and giving it back when it ends (with ``CONN_MAX_AGE`` 0, closing
is returning it to the pool).

With SQLite (tests, a laptop) there is no pool and one writer at a time: calls stay on Channels' single thread.
"""

import asyncio
import contextvars
import functools
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connections

P = ParamSpec("P")
R = TypeVar("R")

_executor: ThreadPoolExecutor | None = None
_lock = threading.Lock()


def pooled() -> bool:
    """Whether the default database has a connection pool (PostgreSQL here), so calls may run on several threads."""
    return bool(settings.DATABASES["default"].get("OPTIONS", {}).get("pool"))


def executor() -> ThreadPoolExecutor:
    """The process's database threads, made on first use."""
    global _executor  # one pool per process, made lazily (after the settings are read)
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=settings.DATABASE_THREADS, thread_name_prefix="db")
        return _executor


def _returning(func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run ``func``, then give this thread's connection back to the pool, whatever happened."""
    try:
        return func(*args, **kwargs)
    finally:
        connections.close_all()


def db_async(func: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """``func`` as a coroutine function run on the database threads (Channels' single thread without a pool)."""

    @functools.wraps(func)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        if not pooled():
            return await database_sync_to_async(func)(*args, **kwargs)
        # A plain hand-over to the pool (asgiref's SyncToAsync costs several times more per call, for features
        # these calls do not use: its thread-sensitive executor and its way back to this loop for async_to_sync).
        # The call runs in a copy of this context, as it would there.
        job: Callable[[], R] = functools.partial(_returning, func, *args, **kwargs)
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(executor(), context.run, job)

    return call
