"""The event loop's own PostgreSQL connections, for the one path that talks to the database from the loop.

A student's move is played on the server's event loop (``games/services/loop_moves.py``): bench/live measured a
move handed to a database thread paying two to three times its own CPU for the two threads passing Python's lock
back and forth, and the loop waiting on PostgreSQL through psycopg's async connection pays none of it. Those
connections come from a pool of their own per event loop (:func:`pool`), at most
``settings.DATABASE_LOOP_CONNECTIONS``, beside the pool Django's threads share. They are set up as Django sets up
its own (the same database, adapters and time zone), in autocommit: the move sends its own BEGIN and COMMIT.

Off (``None``) without a pooled PostgreSQL (SQLite keeps every call on a thread) or with ``settings.MOVES_ON_LOOP``
false, the switch that puts the move back on the database threads.
"""

import asyncio
import weakref

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from psycopg_pool import AsyncConnectionPool

from config.dbthreads import pooled

# One pool per event loop (a connection belongs to the loop it was opened on), opened by a task so that the
# calls arriving while it opens wait for the same opening.
_pools: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[AsyncConnectionPool]]" = (
    weakref.WeakKeyDictionary()
)


def enabled() -> bool:
    """Whether moves are played on the event loop in this process."""
    return bool(settings.MOVES_ON_LOOP) and pooled()


async def pool() -> AsyncConnectionPool | None:
    """The running loop's pool, opened on first use; ``None`` when :func:`enabled` is false."""
    if not enabled():
        return None
    opening = _opening()
    if opening.done():
        return opening.result()
    return await asyncio.shield(opening)  # a caller cancelled while waiting does not cancel the opening


def open_soon() -> None:
    """Start opening the running loop's pool, without waiting for it (a table's page connected: its first move then
    finds the connections open). A failure is left to the next :func:`pool`, which tries again."""
    if enabled():
        _opening().add_done_callback(_seen)


def _opening() -> "asyncio.Task[AsyncConnectionPool]":
    loop = asyncio.get_running_loop()
    opening = _pools.get(loop)
    if opening is None or _failed(opening):
        opening = _pools[loop] = loop.create_task(_open())
    return opening


def _seen(opening: "asyncio.Task[AsyncConnectionPool]") -> None:
    if not opening.cancelled():
        opening.exception()  # retrieved, so asyncio does not log it as never retrieved; the next move reports it


async def _open() -> AsyncConnectionPool:
    # Django's own connection parameters: the database and credentials, prepared statements' threshold, and the
    # adapters (JSON read as text, timestamps in the connection's time zone), so the rows read here convert to
    # model instances exactly as the ORM's do. The cursor factory is the sync one: the async default replaces it.
    params = connections[DEFAULT_DB_ALIAS].get_connection_params()
    params.pop("cursor_factory", None)
    opened = AsyncConnectionPool(
        kwargs={**params, "autocommit": True},
        # All opened at the first move: a connection opened under load (a new PostgreSQL backend, its statements
        # prepared again) made a move wait for it.
        min_size=settings.DATABASE_LOOP_CONNECTIONS,
        max_size=settings.DATABASE_LOOP_CONNECTIONS,
        timeout=10,  # seconds a move waits for a free connection before failing (as Django's pool)
        configure=_configure,
        name="loop",
        open=False,
    )
    try:
        await opened.open(wait=True, timeout=10)  # all of them, before the first move takes one
    except BaseException:
        await opened.close()  # PostgreSQL unreachable: the next move tries again (a failed opening is dropped)
        raise
    return opened


async def _configure(connection: psycopg.AsyncConnection) -> None:
    """The time zone, as Django sets it on its own connections."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.timezone_name and connection.info.parameter_status("TimeZone") != db.timezone_name:
        await connection.execute(db.ops.set_time_zone_sql(), [db.timezone_name])


async def close() -> None:
    """Close the running loop's pool, if it has one (a test's loop before it ends; a server at shutdown)."""
    opening = _pools.pop(asyncio.get_running_loop(), None)
    if opening is not None and not _failed(opening):
        await (await opening).close()


def _failed(opening: "asyncio.Task[AsyncConnectionPool]") -> bool:
    """An opening that failed is tried again by the next call (PostgreSQL may have been down for a moment)."""
    return opening.done() and (opening.cancelled() or opening.exception() is not None)
