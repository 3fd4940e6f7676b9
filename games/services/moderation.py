"""The teacher moderating one table: pausing, resuming or ending it, and taking a player out of the game."""

from datetime import timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone

from config import transport
from games import selectors
from games.engine import AppError
from games.models import Lesson, Move, Table
from games.services.moves import FINISHED, FORBIDDEN, broadcast_refresh, record, run_rules
from games.services.table_rows import NOT_FOUND, locked_table
from learning.models import User


def _teachers_table(teacher: User, table_id: int) -> Table:
    table = locked_table(table_id)
    if not selectors.is_teacher_of(teacher, table):
        raise AppError(FORBIDDEN, "Only the class's teacher can do that.")
    return table


@transaction.atomic
def pause_table(teacher: User, table_id: int) -> Table:
    table = _teachers_table(teacher, table_id)
    if table.status != Table.Status.PLAYING:
        raise AppError("not_playing", "Only a game being played can be paused.")
    return set_status(table, Table.Status.PAUSED)


@transaction.atomic
def resume_table(teacher: User, table_id: int) -> Table:
    table = _teachers_table(teacher, table_id)
    if table.status != Table.Status.PAUSED:
        raise AppError("not_paused", "This table is not paused.")
    return set_status(table, Table.Status.PLAYING)


@transaction.atomic
def end_table(teacher: User, table_id: int) -> Table:
    """End the game now; the scores stand as they are."""
    table = _teachers_table(teacher, table_id)
    if table.status == Table.Status.FINISHED:
        raise AppError(FINISHED, "This game is over already.")
    return set_status(table, Table.Status.FINISHED)


def set_status(table: Table, status: str) -> Table:
    """Change a locked table's status; on commit, every open page of it fetches a fresh snapshot. The turn clock
    stops while the table is not being played (keeping the time the turn had left) and goes on when it resumes."""
    now = timezone.now()
    if table.turn_deadline is not None and status != Table.Status.PLAYING:
        table.clock_left = max(0.0, (table.turn_deadline - now).total_seconds())
        table.turn_deadline = None
    elif table.clock_left is not None and status == Table.Status.PLAYING:
        table.turn_deadline = now + timedelta(seconds=table.clock_left)
        table.clock_left = None
    if status == Table.Status.FINISHED:
        table.turn_deadline = table.clock_left = None
    table.status = status
    table.save(update_fields=["status", "updated", "turn_deadline", "clock_left"])
    broadcast_refresh(table)
    return table


# -- every table of a lesson at once --------------------------------------------------------------------------
def _lesson_tables(teacher: User, lesson_id: int) -> list[Table]:
    """The running lesson's tables, locked, in number order."""
    lesson = Lesson.objects.filter(pk=lesson_id, classroom__teacher=teacher).first()
    if lesson is None:
        raise AppError(NOT_FOUND, "That is not a lesson of one of your classes.")
    if lesson.ended is not None:
        raise AppError(FINISHED, "This lesson has ended.")
    return [locked_table(t) for t in lesson.tables.order_by("number").values_list("id", flat=True)]


@transaction.atomic
def pause_all(teacher: User, lesson_id: int) -> int:
    """Pause every table being played (their clocks stop); returns how many."""
    tables = [t for t in _lesson_tables(teacher, lesson_id) if t.status == Table.Status.PLAYING]
    for table in tables:
        set_status(table, Table.Status.PAUSED)
    return len(tables)


@transaction.atomic
def resume_all(teacher: User, lesson_id: int) -> int:
    """Resume every paused table (their clocks go on with the time they had left); returns how many."""
    tables = [t for t in _lesson_tables(teacher, lesson_id) if t.status == Table.Status.PAUSED]
    for table in tables:
        set_status(table, Table.Status.PLAYING)
    return len(tables)


NOTICES = {
    "two_minutes": "Two minutes left in the lesson: finish your turn.",
    "last_turn": "Last turns now, please.",
}


@transaction.atomic
def notify_all(teacher: User, lesson_id: int, notice: str) -> int:
    """Show ``notice`` (a key of :data:`NOTICES`) on every table still open; returns how many tables."""
    if notice not in NOTICES:
        raise AppError("bad_notice", "There is no such notice.")
    tables = [t for t in _lesson_tables(teacher, lesson_id) if t.status != Table.Status.FINISHED]
    message = {"type": "table.notice", "message": NOTICES[notice]}
    for table in tables:
        group = transport.table_group(table.id)
        transaction.on_commit(partial(transport.group_send, group, message))
    return len(tables)


@transaction.atomic
def remove_player(teacher: User, table_id: int, seat: int) -> Move:
    """Take the student in ``seat`` out of the game (the rules decide what happens to their cards and turn)."""
    return _remove_seat(_teachers_table(teacher, table_id), seat, teacher)


@transaction.atomic
def release_seats_of(student_id: int, teacher: User) -> list[Move]:
    """A student left the class (the teacher removed them): every game they still sit in goes on without them,
    as when the teacher takes them out of one game, so no table waits for a player who cannot come back."""
    moves = []
    for table_id, seat in selectors.open_seats_of(student_id):
        moves.append(_remove_seat(locked_table(table_id), seat, teacher))
    return moves


def _remove_seat(table: Table, seat: int, teacher: User) -> Move:
    if table.status == Table.Status.FINISHED:
        raise AppError(FINISHED, "This game is over.")
    seat_row = table.seats.filter(number=seat, removed=False).first()
    if seat_row is None:
        raise AppError(NOT_FOUND, "Nobody plays in that seat.")
    rules = selectors.rules_of(table.game)
    now = timezone.now()
    state, events = run_rules(partial(rules.remove_player, table.state, seat), table.lexicon_id, now)
    seat_row.removed = True
    seat_row.save(update_fields=["removed"])
    removed = {"type": "table.removed", "seat": seat}
    transaction.on_commit(lambda: transport.group_send(transport.table_group(table.id), removed))
    action = {"type": "remove_player", "seat": seat}
    return record(table, rules, state, events, kind=Move.Kind.REMOVAL, seat=None, actor=teacher, action=action, now=now)
