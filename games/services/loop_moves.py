"""A student's move played on the server's event loop, the table consumer's way to play (PostgreSQL).

On a database thread (:func:`games.services.moves.apply_action_deferred`) a move costs its process two to three
times its own CPU: the thread and the event loop pass Python's lock back and forth at every step (bench/live,
``profile_move.py --python-beside``). Here the loop plays it itself, waiting on PostgreSQL through psycopg's async
connection (:mod:`config.asyncdb`) and free for the other tables meanwhile: BEGIN with the locked read, then the
same checks, rules and log as on a thread (:func:`moves.play`, :func:`moves.advance`), then the save with COMMIT,
and only then the same broadcasts and jobs (:func:`moves.after_commit`), handed back to be sent from the loop as the
thread's are. The move is durable before anything is broadcast, and a refusal changes nothing: it comes before
anything is written, and the transaction, having only read, ends with COMMIT (:func:`table_rows.end_read_on`).

What only a thread may do is left to one: the rules must not read the database or keep the loop long. So the move
goes to a database thread instead (:func:`_on_thread`, the path every other caller takes) when
- moves are not played on the loop here (SQLite, or ``settings.MOVES_ON_LOOP`` off);
- the teacher acts (whose rights are read from the class);
- the action's rules may take long (``Game.long_actions``: a Grabble hint searches every play of a rack);
- the rules need the database beyond the locked read: a lexicon whose keys this process has not loaded yet, or a
  word's analyses (:class:`games.selectors.LoadedWordList` raises ``NeedsDatabase``);
- the turn cannot pass when its time runs out (the teacher is alerted, which the thread's path commits).
Then the loop's transaction (which has only read) is ended first and the thread plays the move from the start: the
rules are pure, so nothing of the first attempt remains.
"""

import asyncio
from collections import OrderedDict
from collections.abc import Coroutine
from functools import partial
from typing import Any, TypeVar

import psycopg
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation

from config import asyncdb
from config.dbthreads import db_async
from config.transport import Deferred, deferring
from games import selectors
from games.engine import Action, AppError
from games.engine.errors import CANNOT_TIME_OUT
from games.engine.game import state_change
from games.models import Move, Seat, Table
from games.services import moves, table_rows
from games.services.table_rows import Copy, LoopRow
from learning.models import User
from lexicons.models import Lexicon

T = TypeVar("T")


class OffLoop(Exception):
    """This move needs what only a database thread may do (see the module's docstring)."""


async def apply_action(table_id: int, user: User, action: Action) -> Deferred:
    """:func:`moves.apply_action_deferred` for the table consumer: the committed move's broadcasts and jobs, to be
    sent with :func:`config.transport.send_deferred`. Raises :class:`AppError` (then nothing has changed)."""
    moves.check_shape(action)
    pool = await asyncdb.pool()
    if pool is None or user.is_teacher:
        return await _on_thread(table_id, user, action)
    try:
        async with pool.connection() as conn:
            copy = _copies.get(table_id)
            if copy is not None:
                deferred = await _play_on_copy(conn, table_id, copy, user, action)
                if deferred is not None:
                    return deferred
            return await _play(conn, table_id, user, action)
    except OffLoop:
        return await _on_thread(table_id, user, action)


async def _on_thread(table_id: int, user: User, action: Action) -> Deferred:
    _, deferred = await db_async(moves.apply_action_deferred)(table_id, user, action)
    return deferred


async def _play(conn: psycopg.AsyncConnection, table_id: int, user: User, action: Action) -> Deferred:
    """The move on the table's row read under its lock: two round trips."""
    saving = None
    try:
        copy = await table_rows.locked_with_seats_on(conn, table_id)
        row = copy.row
        _keep(table_id, copy)  # current whatever this move does: the next move's copy
        table, seats, lexicon = table_rows.loop_objects(copy)
        before = table.state
        played = _decide(table, seats, lexicon, user, action)
        move = moves.advance(table, played, kind=Move.Kind.ACTION, actor=user, action=action)
        saving = table_rows.save_move_on(conn, row, table, moves.SAVED_FIELDS, move)
        saved, broadcast = await _saved_with_broadcast(saving, table, seats, played, move)
    except BaseException as error:
        if saving is None and isinstance(error, (AppError, OffLoop)):
            await table_rows.end_read_on(conn)  # refused (or for a thread) before anything was written
        else:
            await table_rows.rollback_on(conn)  # nothing to end once the COMMIT is through
        raise
    return _committed(table_id, row, before, saved, table, played, move, broadcast)


async def _play_on_copy(
    conn: psycopg.AsyncConnection, table_id: int, copy: Copy, user: User, action: Action
) -> Deferred | None:
    """The move decided on this process's copy of the table's row and saved only if the row has not changed since:
    one round trip. ``None`` when it must be played on the row itself: the row changed (nothing was saved), or the
    rules refused (a copy may be behind the row; the row is read under its lock and decides)."""
    table, seats, lexicon = table_rows.loop_objects(copy)
    before = table.state
    try:
        played = _decide(table, seats, lexicon, user, action)
    except AppError:
        return None
    move = moves.advance(table, played, kind=Move.Kind.ACTION, actor=user, action=action)
    saving = table_rows.save_move_if_unchanged_on(conn, copy.row, table, moves.SAVED_FIELDS, move)
    saved, broadcast = await _saved_with_broadcast(saving, table, seats, played, move)
    if saved is None:
        forget(table_id)
        return None
    return _committed(table_id, copy.row, before, saved, table, played, move, broadcast)


def _decide(table: Table, seats: list[Seat], lexicon: Lexicon | None, user: User, action: Action) -> moves.Played:
    """The checks and the rules (:func:`moves.play`), or :class:`OffLoop` for what only a thread may do."""
    if action.get("type") in selectors.rules_of(table.game).long_actions:
        raise OffLoop
    words = selectors.word_list_for(table.lexicon_id, lexicon)
    try:
        return moves.play(table, seats, partial(moves.acting_seat, user=user), action, None, words)
    except AppError as error:
        if error.code == CANNOT_TIME_OUT:
            raise OffLoop from error
        raise
    except (selectors.NeedsDatabase, SynchronousOnlyOperation) as error:
        # The rules need the database (SynchronousOnlyOperation: Django's own guard, should anything else
        # reach for it): the thread loads what they need, for this move and the next ones.
        raise OffLoop from error


async def _saved_with_broadcast(
    save: Coroutine[Any, Any, T], table: Table, seats: list[Seat], played: moves.Played, move: Move
) -> tuple[T, moves.Broadcast]:
    """What ``save`` returned, with the move's :class:`moves.Broadcast`. It is made while the save waits on PostgreSQL's
    write and flush of the log, not after it; nothing is sent until the save has returned. Should making it fail,
    the save is still awaited (the connection goes back to its pool clean, and the move is saved or not as it would
    have been), then the error goes on."""
    saving = asyncio.ensure_future(save)
    try:
        await asyncio.sleep(0)  # the save runs up to its first wait: its statement is on its way
    except asyncio.CancelledError:
        saving.cancel()
        raise
    try:
        players = selectors.players(table, seats)
        broadcast = moves.Broadcast.made(table, played.rules, move, players, table.version, table.state)
    finally:
        saved = await saving
    return saved, broadcast


def _committed(
    table_id: int,
    decided_on: LoopRow,
    before: dict[str, Any],
    saved: LoopRow,
    table: Table,
    played: moves.Played,
    move: Move,
    broadcast: moves.Broadcast,
) -> Deferred:
    """The committed move's broadcasts (with the change to the row, for the other processes' copies) and jobs. The
    move was ``decided_on`` a row whose state was ``before``; this process keeps the state the move made, and a game
    with a history sends the others only what the move changed of it (:func:`state_change`)."""
    rules = played.rules
    _keep(table_id, Copy(saved, table.state))
    made = state_change(rules.history, before, table.state) if rules.history else None
    change = table_rows.row_change(saved, decided_on[-1], table.state, made)
    with deferring() as deferred:
        for job in moves.after_commit(table, rules, move, broadcast.players, row_change=change, made=broadcast):
            job()
    return deferred


# -- this process's copies of its tables' rows -------------------------------------------------------------------
# Kept from the last move played or read here, and from every move broadcast to a page of this process at the table
# (:func:`follow`), most recently used last, at most settings.MOVE_TABLE_COPIES of them. Only
# the event loop touches them. A copy is only a guess: the guarded save checks it against the row.
_copies: OrderedDict[int, Copy] = OrderedDict()


def _keep(table_id: int, copy: Copy) -> None:
    _copies[table_id] = copy
    _copies.move_to_end(table_id)
    while len(_copies) > settings.MOVE_TABLE_COPIES:
        _copies.popitem(last=False)


def follow(table_id: int, change: dict[str, Any] | None) -> None:
    """A move at the table was broadcast with the row it saved (``None``: a change made on a database thread, which
    keeps no copy, so this process's copy is behind): the copy is that row from now on, or none if its state cannot
    be made here (:func:`table_rows.followed`)."""
    copy = None if change is None else table_rows.followed(_copies.get(table_id), change)
    if copy is None:
        forget(table_id)
    else:
        _keep(table_id, copy)


def forget(table_id: int) -> None:
    """Drop the copy of the table's row (it changed in a way no broadcast told of)."""
    _copies.pop(table_id, None)
