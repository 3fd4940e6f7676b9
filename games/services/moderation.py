"""The teacher moderating one table: pausing, resuming or ending it, and taking a player out of the game."""

from functools import partial

from django.db import transaction
from django.utils import timezone

from config import transport
from games import selectors
from games.engine import AppError
from games.models import Move, Table
from games.services.moves import FINISHED, FORBIDDEN, NOT_FOUND, broadcast_refresh, locked_table, record, run_rules
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
    """Change a locked table's status; on commit, every open page of it fetches a fresh snapshot."""
    table.status = status
    table.save(update_fields=["status", "updated"])
    broadcast_refresh(table)
    return table


@transaction.atomic
def remove_player(teacher: User, table_id: int, seat: int) -> Move:
    """Take the student in ``seat`` out of the game (the rules decide what happens to their cards and turn)."""
    table = _teachers_table(teacher, table_id)
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
