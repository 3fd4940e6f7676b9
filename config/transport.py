"""Broadcasts after a commit: the one way the services of every app talk to the open pages.

The database is the truth and every page resyncs on reconnect, so a broadcast is best effort: a channel layer that
is down is logged, never raised, and the change that was committed stands. Services call :func:`group_send` inside
``transaction.on_commit`` (never before the commit: a rolled-back change must not appear anywhere).

The websocket consumer that plays a move runs the move inside :func:`deferring`: the same transaction, but the
committed move's messages (and its ``later`` work, the learning job's publish) are handed back in a
:class:`Deferred` instead of being sent one by one from the database thread, which every table of the server
process shares. The consumer then sends them all at once from its own event loop with :func:`send_deferred`, in a
task of its own (:func:`send_deferred_soon`) so that it is free to forward the next message meanwhile.

The group names live here too, so that producers and consumers agree on them.
"""

import asyncio
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from config import channel_layer
from config.celery import app as celery_app
from games.engine.jsontext import json_bytes  # one encoder for the rules and the server

logger = logging.getLogger(__name__)

Message = dict[str, Any]


def text(payload: Any) -> str:
    """``payload`` as the JSON text a page is sent (:func:`json_bytes`)."""
    return json_bytes(payload).decode()


# -- group names ---------------------------------------------------------------------------------------------------
def table_group(table_id: int) -> str:
    """Everyone with the table open: its seats, its spectators and the teacher."""
    return f"table-{table_id}"


def lesson_group(lesson_id: int) -> str:
    """The teacher's dashboard of a lesson."""
    return f"lesson-{lesson_id}"


def classroom_group(classroom_id: int) -> str:
    """Every open page of a class (its roster, and the students waiting to be sent to their table)."""
    return f"classroom-{classroom_id}"


def user_group(user_id: int) -> str:
    """Every open page of one person (to close them when the teacher removes a student)."""
    return f"user-{user_id}"


def recipient(seat: int | None) -> str:
    """The key of a seat's own copy in a table's broadcast (``None``: the spectators' and the teacher's)."""
    return "spectators" if seat is None else str(seat)


# -- deferring -----------------------------------------------------------------------------------------------------
@dataclass
class Deferred:
    """What a committed change left for its async caller to do: ``messages`` to send (group, message), then the
    ``later`` work, which nobody waits for."""

    messages: list[tuple[str, Message]] = field(default_factory=list)
    later: list[Callable[[], None]] = field(default_factory=list)


# Set while a change runs inside deferring(): group_send and later fill it instead of acting.
_deferred: ContextVar[Deferred | None] = ContextVar("deferred_broadcasts", default=None)


@contextmanager
def deferring() -> Iterator[Deferred]:
    """Collect the broadcasts made (on commit) inside the block instead of sending them."""
    deferred = Deferred()
    token = _deferred.set(deferred)
    try:
        yield deferred
    finally:
        _deferred.reset(token)


def later(job: Callable[[], None]) -> None:
    """Do ``job`` after the broadcasts: handed to the deferring caller, which does it once it has sent them (off
    the database thread and the event loop), or now if nobody is deferring."""
    deferred = _deferred.get()
    if deferred is None:
        job()
    else:
        deferred.later.append(job)


def group_send(group: str, message: Message) -> None:
    """Send ``message`` to ``group``, best effort; inside :func:`deferring` it is collected instead."""
    deferred = _deferred.get()
    if deferred is not None:
        deferred.messages.append((group, message))
        return
    try:
        async_to_sync(get_channel_layer().group_send)(group, message)
    except Exception:
        logger.exception("could not broadcast to %s", group)


async def send_deferred(deferred: Deferred) -> None:
    """Send the collected broadcasts all at once from the event loop, then do the later work in a worker thread:
    not the database thread, which every table of this server process waits for, unless Celery runs eagerly (no
    broker configured) and the job itself is done there and then."""
    errors = await channel_layer.group_send_all(get_channel_layer(), deferred.messages)
    for (group, _), error in zip(deferred.messages, errors, strict=True):
        if error is not None:
            logger.error("could not broadcast to %s", group, exc_info=error)
    if deferred.later:
        if celery_app.conf.task_always_eager:
            await database_sync_to_async(_run_all)(deferred.later)
        else:
            await sync_to_async(_run_all, thread_sensitive=False)(deferred.later)


def send_now(deferred: Deferred) -> None:
    """Send the collected broadcasts from this thread, then do the later work (what a caller that will not send
    them, having failed, collected)."""
    for group, message in deferred.messages:
        group_send(group, message)
    _run_all(deferred.later)


# The sends under way (asyncio keeps only weak references to tasks: one nobody holds may vanish mid-send).
_sending: set[asyncio.Task] = set()


def send_deferred_soon(deferred: Deferred) -> None:
    """:func:`send_deferred` in a task of its own, so that the caller (a consumer, which handles its messages one at
    a time) goes straight back to its queue instead of waiting for every publish and the later work. A failure is
    logged. One consumer's moves still go out in order: each send's publishes take their place in the layer's queue
    of publishes at once, and the consumer's next move must first make its own trip to the database."""
    task = asyncio.get_running_loop().create_task(send_deferred(deferred))
    _sending.add(task)
    task.add_done_callback(_sent)


def _sent(task: asyncio.Task) -> None:
    _sending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("the broadcasts of a committed change failed", exc_info=task.exception())


def _run_all(work: list[Callable[[], None]]) -> None:
    for job in work:
        job()
