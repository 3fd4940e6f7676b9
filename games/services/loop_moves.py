"""A student's move played on the server's event loop, the table consumer's way to play (PostgreSQL).

On a database thread (:func:`games.services.moves.apply_action_deferred`) a move costs its process two to three
times its own CPU: the thread and the event loop pass Python's lock back and forth at every step (bench/live,
``profile_move.py --python-beside``). Here the loop plays it itself, waiting on PostgreSQL through psycopg's async
connection (:mod:`config.asyncdb`) and free for the other tables meanwhile: BEGIN with the locked read, then the
same checks, rules and log as on a thread (:func:`moves.play`, :func:`moves.advance`), then the save with COMMIT,
and only then the same broadcasts and jobs (:func:`moves.after_commit`), handed back to be sent from the loop as the
thread's are. The move is durable before anything is broadcast, and a refusal rolls back and changes nothing.

What only a thread may do is left to one: the rules must not read the database or keep the loop long. So the move
goes to a database thread instead (:func:`_on_thread`, the path every other caller takes) when
- moves are not played on the loop here (SQLite, or ``settings.MOVES_ON_LOOP`` off);
- the teacher acts (whose rights are read from the class);
- the action's rules may take long (``Game.long_actions``: a Grabble hint searches every play of a rack);
- the rules need the database beyond the locked read: a lexicon whose keys this process has not loaded yet, or a
  word's analyses (:class:`games.selectors.LoadedWordList` raises ``NeedsDatabase``);
- the turn cannot pass when its time runs out (the teacher is alerted, which the thread's path commits).
Then the loop's transaction is rolled back first and the thread plays the move from the start: the rules are pure,
so nothing of the first attempt remains.
"""

from functools import partial

import psycopg
from django.core.exceptions import SynchronousOnlyOperation

from config import asyncdb
from config.dbthreads import db_async
from config.transport import Deferred, deferring
from games import selectors
from games.engine import Action, AppError
from games.engine.errors import CANNOT_TIME_OUT
from games.models import Move
from games.services import moves, table_rows
from learning.models import User


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
            return await _play(conn, table_id, user, action)
    except OffLoop:
        return await _on_thread(table_id, user, action)


async def _on_thread(table_id: int, user: User, action: Action) -> Deferred:
    _, deferred = await db_async(moves.apply_action_deferred)(table_id, user, action)
    return deferred


async def _play(conn: psycopg.AsyncConnection, table_id: int, user: User, action: Action) -> Deferred:
    try:
        table, seats, lexicon = await table_rows.locked_with_seats_on(conn, table_id)
        if action.get("type") in selectors.rules_of(table.game).long_actions:
            raise OffLoop
        words = selectors.word_list_for(table.lexicon_id, lexicon)
        try:
            played = moves.play(table, seats, partial(moves.acting_seat, user=user), action, None, words)
        except AppError as error:
            if error.code == CANNOT_TIME_OUT:
                raise OffLoop from error
            raise
        except (selectors.NeedsDatabase, SynchronousOnlyOperation) as error:
            # The rules need the database (SynchronousOnlyOperation: Django's own guard, should anything else
            # reach for it): the thread loads what they need, for this move and the next ones.
            raise OffLoop from error
        move = moves.advance(table, played, kind=Move.Kind.ACTION, actor=user, action=action)
        await table_rows.save_move_on(conn, table, moves.SAVED_FIELDS, move)
    except BaseException:
        await table_rows.rollback_on(conn)  # nothing to end once the COMMIT is through
        raise
    with deferring() as deferred:
        for job in moves.after_commit(table, played.rules, move, selectors.players(table, seats)):
            job()
    return deferred
