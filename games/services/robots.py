"""Robot players at a table: seating them, and letting them act.

A robot is a seat (``Seat.robot`` is its level) played through the same move path as a student's: after every
commit at a table with robots (a move, a resume, a robot seated) their turn is scheduled with a short human-like
delay; then :func:`robot_turn` reads the table, gives each robot seat **its own view only** (the envelope its page
would get) to its brain (:mod:`games.robots`), and sends the first of the brain's actions the rules accept, with the
table's version as ``expected_version``: one action per transaction, logged and replayed like anyone's. That
commit schedules the next robot turn, and so on until no robot has anything to do.

How a turn is run (``settings.ROBOTS_RUN``): ``celery`` — a task with a countdown on a worker; ``thread`` — a timer
thread in the server process (Celery running eagerly in development: the delay never blocks a request or the event
loop); ``manual`` — queued for :func:`run_pending` (the test suite). A robot whose process died mid-thought acts
when the table is next read (:func:`nudge`, from the table's page and its socket's hello); a turn scheduled twice
for one version acts once, the second being refused as stale. A paused or finished table's robots do nothing.

At a practice table (no teacher) the robots also take the teacher's part where the game waits for it (closing a
quiz, finishing a review, checking a word): :func:`games.robots.teacher_stand_in`.
"""

import logging
import random
import threading
from collections import deque
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from config import transport
from games import robots, selectors
from games.engine import AppError
from games.models import Move, Seat, Table
from games.services import moves, table_rows
from learning.models import User

logger = logging.getLogger(__name__)

ROBOT_LEVELS = robots.LEVELS
GIVE_UP = (moves.STALE, moves.PAUSED, moves.FINISHED, moves.NOT_FOUND)
PENDING: deque[tuple[int, int]] = deque()  # manual mode: (table id, version) turns waiting for run_pending


def robot_name(level: str) -> str:
    return robots.LEVEL_LABELS.get(level, "Robot")


# -- scheduling ----------------------------------------------------------------------------------------------------
def after_commit(table_id: int, version: int, seated: list[dict[str, Any]] | None) -> None:
    """Called inside the transaction of every change at a table: on commit, wake its robots (if it has any)."""
    publish = waking(table_id, version, seated)
    if publish is not None:
        transaction.on_commit(publish)


def waking(table_id: int, version: int, seated: list[dict[str, Any]] | None) -> Callable[[], None] | None:
    """What wakes a table's robots once its change at ``version`` is committed; ``None`` when ``seated`` (the
    table's players, if known) has no robot."""
    if seated is not None and not any(p.get("robot") for p in seated):
        return None

    # Like the learning job: a move played from a socket schedules its robots after its broadcasts, off the
    # database thread that every table of the process shares (and off the event loop).
    return partial(transport.later, partial(wake, table_id, version, check=seated is None))


def wake(table_id: int, version: int, *, delay: float | None = None, check: bool = False) -> None:
    """Schedule the robots of a table to look at it at ``version`` after a human-like delay."""
    if check and not Seat.objects.filter(table_id=table_id, removed=False).exclude(robot="").exists():
        return
    if delay is None:
        delay = random.uniform(settings.ROBOT_DELAY_MIN, settings.ROBOT_DELAY_MAX)
    mode = settings.ROBOTS_RUN
    if mode == "manual":
        PENDING.append((table_id, version))
    elif mode == "thread":
        timer = threading.Timer(delay, _in_thread, args=(table_id, version))
        timer.daemon = True
        timer.start()
    else:
        from games import tasks

        try:
            tasks.robot_turn.apply_async((table_id, version), countdown=delay)
        except Exception:
            logger.exception("could not schedule the robots of table %s", table_id)


def _in_thread(table_id: int, version: int) -> None:
    close_old_connections()
    try:
        robot_turn(table_id, version)
    except Exception:
        logger.exception("robot turn at table %s failed", table_id)
    finally:
        connection.close()


def run_pending(limit: int = 10_000) -> int:
    """Manual mode: run the queued robot turns (and those they queue) until none is left; the moves made."""
    made = 0
    while PENDING and limit > 0:
        limit -= 1
        table_id, version = PENDING.popleft()
        made += robot_turn(table_id, version)
    return made


def nudge(table: Table) -> None:
    """The table was read: if one of its robots should have acted and nothing happened for a while (a worker or
    process that died mid-thought), wake them now. Harmless if one is still thinking: only one acts."""
    if table.status != Table.Status.PLAYING:
        return
    quiet = timedelta(seconds=settings.ROBOT_DELAY_MAX + 3)
    if timezone.now() - table.updated < quiet:
        return
    if table.seats.filter(removed=False).exclude(robot="").exists():
        wake(table.id, table.version, delay=0)


def nudge_table(table_id: int) -> None:
    """:func:`nudge` by id (the table's socket, on connect and now and then on a heartbeat): only the fields it
    looks at are read, not the state (a heartbeat must stay a small read)."""
    table = Table.objects.filter(pk=table_id).only("id", "version", "status", "updated").first()
    if table is not None:
        nudge(table)


# -- acting --------------------------------------------------------------------------------------------------------
def robot_turn(table_id: int, version: int) -> bool:
    """One robot action at the table if it is still at ``version`` and playing: the first robot seat whose brain
    answers something the rules accept (or, at a practice table, the teacher's stand-in). True if one was made."""
    table = selectors.table_by_id(table_id)
    if table is None or table.version != version or table.status != Table.Status.PLAYING:
        return False
    rules = selectors.rules_of(table.game)
    seats = [s for s in selectors.seats_of(table) if s.robot and not s.removed]
    words = selectors.word_list_for(table.lexicon_id)
    rng = random.Random(f"{table.seed}:{version}")
    for seat in seats:
        view = selectors.table_view(rules, table.state, table.status, seat.number)
        if not view["actions"]:
            continue
        for action in robots.decide(view, words, seat.robot, rng):
            try:
                moves.apply_robot_action(table_id, seat.number, action, expected_version=version)
            except AppError as error:
                if error.code in GIVE_UP:
                    return False
                continue  # the rules refused this one: try the robot's next choice
            return True
    if table.lesson.practice:
        stand_in = robots.teacher_stand_in(selectors.table_view(rules, table.state, table.status, None))
        if stand_in is not None:
            try:
                moves.apply_robot_action(table_id, None, stand_in, expected_version=version)
            except AppError:
                return False
            return True
    return False


SHOW_MOVE_READS = 3  # times "Show me a move" reads the table and decides again when a robot moved first


def show_move(user: User, table_id: int, level: str = "strong") -> Move:
    """ "Show me a move": at a student's practice table, one move of a robot of ``level`` played for the student
    from the student's own view (the solitaire's stuck student sees a word found, or a refill). The table's own
    robots go on playing meanwhile: when one moves first, the move is decided again on the table as it now is (up
    to ``SHOW_MOVE_READS`` reads) rather than refused as stale; the student asked a robot, not to retry."""
    for _ in range(SHOW_MOVE_READS - 1):
        try:
            return _show_move_once(user, table_id, level)
        except AppError as error:
            if error.code != moves.STALE:
                raise
    return _show_move_once(user, table_id, level)


def _show_move_once(user: User, table_id: int, level: str) -> Move:
    table = selectors.table_by_id(table_id)
    if table is None or not table.lesson.practice:
        raise AppError(moves.NOT_FOUND, "Robots show moves at practice tables only.")
    access = selectors.access(user, table)
    if access is None or access.seat is None:
        raise AppError(moves.FORBIDDEN, "You do not play at this table.")
    rules = selectors.rules_of(table.game)
    view = selectors.table_view(rules, table.state, table.status, access.seat)
    rng = random.Random()
    refused: AppError | None = None
    for action in robots.decide(view, selectors.word_list_for(table.lexicon_id), level, rng):
        try:
            return moves.apply_action(table_id, user, action, expected_version=table.version)
        except AppError as error:
            if error.code in GIVE_UP:
                raise
            refused = error
    raise refused or AppError("no_move", "The robot sees nothing to do here now.")


# -- seating -------------------------------------------------------------------------------------------------------
@transaction.atomic
def seat_robot(teacher: User, table_id: int, seat: int, level: str) -> Seat:
    """Put a robot of ``level`` in ``seat``: an absent student's (it takes over that hand or rack as it is, and
    the student no longer plays there), or a removed player's where the rules can seat a player again (it takes
    over what the seat holds, as a student seated there would)."""
    if level not in ROBOT_LEVELS:
        raise AppError("bad_level", "Choose a robot level: beginner, steady or strong.")
    table = table_rows.locked_table(table_id)
    if not selectors.is_teacher_of(teacher, table):
        raise AppError(moves.FORBIDDEN, "Only the class's teacher can do that.")
    if table.status == Table.Status.FINISHED:
        raise AppError(moves.FINISHED, "This game is over.")
    row = table.seats.filter(number=seat).first()
    if row is None:
        raise AppError(moves.NOT_FOUND, "There is no such seat.")
    if row.removed:
        rules = selectors.rules_of(table.game)
        if not rules.can_seat(table.state, seat):
            raise AppError("seat_removed", f"{rules.title} cannot seat a player there now.")
        now = timezone.now()
        state, events = moves.run_rules(lambda ctx: rules.add_player(table.state, seat, ctx)[:2], table.lexicon_id, now)
        row.student, row.robot, row.removed = None, level, False
        row.save(update_fields=["student", "robot", "removed"])
        action = {"type": "add_player", "seat": seat, "robot": level}
        moves.record(
            table, rules, state, events, kind=Move.Kind.SEATED, seat=None, actor=teacher, action=action, now=now
        )  # on commit, the robots are woken like after any move
        return row
    row.student = None
    row.robot = level
    row.save(update_fields=["student", "robot"])
    moves.broadcast_refresh(table)  # on commit, every page reads the new name; the robots wake
    return row


def robot_seats(count: int, level: str) -> list[dict[str, Any]]:
    """``count`` robot seats of ``level`` for a new table (see ``lessons.new_table``)."""
    if count and level not in ROBOT_LEVELS:
        raise AppError("bad_level", "Choose a robot level: beginner, steady or strong.")
    return [{"robot": level}] * count


__all__ = ["nudge", "nudge_table", "robot_turn", "run_pending", "seat_robot", "show_move", "wake"]
