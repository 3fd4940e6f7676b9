"""The move path's two statements (PostgreSQL) give what the ORM's four give, and write what the ORM would write."""

import json
import tempfile
import threading

import psycopg
import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine import AppError
from games.models import Move, Seat, Table
from games.services import moderation, moves, table_rows
from learning.models import Student
from tests.conftest import needs_postgresql
from tests.games.conftest import seated

pytestmark = pytest.mark.usefixtures("toy_game")

SEAT_VIEW = ("number", "student_id", "robot", "removed")


def as_the_orm_reads_it(table_id: int) -> tuple[dict, list[tuple]]:
    table = Table.objects.get(pk=table_id)
    seats = Seat.objects.filter(table_id=table_id).select_related("student").order_by("number")
    return fields_of(table), [seat_of(s) for s in seats]


def fields_of(table: Table) -> dict:
    return {f.attname: getattr(table, f.attname) for f in Table._meta.concrete_fields}


def seat_of(seat: Seat) -> tuple:
    student = seat.student
    who = None if student is None else (student.id, student.user_id, student.display_name, student.active)
    return (*(getattr(seat, name) for name in SEAT_VIEW), who)


@pytest.mark.django_db
def test_the_locked_read_gives_the_table_and_its_seats_as_the_orm_does(table, teacher, students):
    """Students, a removed one, and a robot in a seat; JSON fields, datetimes and nulls come back as the ORM's."""
    moderation.remove_player(teacher, table.id, 1)
    Seat.objects.filter(table=table, number=2).update(student=None, robot=Seat.Robot.STEADY)
    Student.objects.filter(pk=students[0].pk).update(active=False)  # taken out of the class: may no longer act
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now(), clock_left=12.5)

    with transaction.atomic():
        locked, seats = table_rows.locked_with_seats(table.id)
    expected_table, expected_seats = as_the_orm_reads_it(table.id)
    assert fields_of(locked) == expected_table
    assert isinstance(locked.state, dict)
    assert [seat_of(s) for s in seats] == expected_seats
    assert [(s.removed, s.student and s.student.active) for s in seats] == [(False, False), (True, True), (False, None)]
    assert (seats[2].student, seats[2].robot) == (None, Seat.Robot.STEADY)
    assert all(s.table is locked for s in seats)


@pytest.mark.django_db
def test_a_table_that_does_not_exist_is_not_found(db):
    with transaction.atomic(), pytest.raises(AppError) as refused:
        table_rows.locked_with_seats(987654)
    assert refused.value.code == "not_found"


@pytest.mark.django_db
def test_saving_a_move_writes_the_state_and_the_log_entry(table, teacher):
    before = Table.objects.get(pk=table.pk)
    with transaction.atomic():
        locked, _ = table_rows.locked_with_seats(table.id)
        locked.version += 1
        # Written with orjson on PostgreSQL: what the ORM's json.dumps would write, integer keys and tuples included.
        locked.state = {**locked.state, "note": "ἀγάπη, “quoted”, and a \\ backslash", "odd": {1: (0.1, 2**62, None)}}
        locked.status = Table.Status.FINISHED
        move = Move(
            table=locked, seq=locked.version, seat=None, actor=teacher, action={"type": "skip"}, events=[{"k": 1}]
        )
        table_rows.save_move(locked, ("state", "version", "status", "updated"), move)
    saved = Table.objects.get(pk=table.pk)
    assert (saved.version, saved.status, saved.state["note"]) == (1, "finished", "ἀγάπη, “quoted”, and a \\ backslash")
    assert saved.state == json.loads(json.dumps(locked.state))
    assert saved.state["odd"] == {"1": [0.1, 2**62, None]}
    assert saved.updated > before.updated  # auto_now, as the ORM's save sets it
    stored = Move.objects.get(pk=move.pk)
    assert (stored.table_id, stored.seq, stored.kind, stored.actor_id) == (table.pk, 1, "action", teacher.pk)
    assert (stored.action, stored.events, stored.seat) == ({"type": "skip"}, [{"k": 1}], None)
    assert not move._state.adding


@pytest.mark.django_db
@needs_postgresql("the two statements are PostgreSQL's; elsewhere the ORM's four run (checked by the tests above)")
def test_postgresql_takes_two_statements_for_what_the_orm_takes_four(table, django_assert_num_queries):
    with transaction.atomic():
        with django_assert_num_queries(1):
            locked, _ = table_rows.locked_with_seats(table.id)
        locked.version += 1
        with django_assert_num_queries(1):
            table_rows.save_move(locked, ("version",), Move(table=locked, seq=1, action={}, events=[]))
    assert Move.objects.filter(table=table, seq=1).exists()


@pytest.mark.django_db
@needs_postgresql("SQLite prepares nothing, and its moves take the ORM's statements (checked by the tests above)")
def test_postgresql_prepares_the_two_statements_and_nothing_else(table):
    """Planned once per connection (Django's default turns psycopg's prepared statements off, ``prepare=True``
    included); the ORM's own statements, bound on the client, are never prepared."""
    for _ in range(3):
        with transaction.atomic():
            locked, _ = table_rows.locked_with_seats(table.id)
            assert Table.objects.filter(pk=table.id).exists()  # an ORM statement, between the two
            locked.version += 1
            table_rows.save_move(locked, ("version",), Move(table=locked, seq=locked.version, action={}, events=[]))
    # A prepared statement is logged as any other.
    with CaptureQueriesContext(connection) as logged, transaction.atomic():
        table_rows.locked_with_seats(table.id)
    assert "FOR UPDATE OF" in logged.captured_queries[1]["sql"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = sorted(row[0] for row in cursor.fetchall())
    assert len(prepared) == 2
    assert prepared[0].startswith("SELECT ")
    assert "FOR UPDATE OF" in prepared[0]
    assert prepared[1].startswith("WITH saved AS")


# -- a move's transaction: BEGIN with the locked read, COMMIT with the save ----------------------------------------
def round_trips(action) -> int:
    """How many times the connection waited on PostgreSQL while ``action`` ran: each simple query and each pipeline
    sync is answered by exactly one ReadyForQuery (read from libpq's protocol trace)."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with tempfile.TemporaryFile("w+") as trace:
        pgconn.trace(trace.fileno())
        try:
            action()
        finally:
            pgconn.untrace()
        trace.seek(0)
        return sum(1 for line in trace if "\tB\t" in line and "ReadyForQuery" in line)


@pytest.mark.django_db(transaction=True)
@needs_postgresql("SQLite takes the ORM's statements in Django's own transaction")
def test_a_move_waits_on_postgresql_twice(table):
    users = seated(table)
    moves.apply_action(table.id, users[0], {"type": "draw"})  # the statements are prepared on this connection
    assert round_trips(lambda: moves.apply_action(table.id, users[0], {"type": "draw"})) == 2
    saved = Table.objects.get(pk=table.id)
    assert saved.version == 2
    assert list(Move.objects.filter(table=table).values_list("seq", "seat")) == [(0, None), (1, 0), (2, 0)]
    # Django's view of the connection is as after any transaction of its own.
    assert connection.get_autocommit()
    assert not connection.in_atomic_block
    assert connection.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


@pytest.mark.django_db(transaction=True)
@needs_postgresql("the fused transaction is PostgreSQL's")
def test_a_refused_move_rolls_back_and_the_next_one_plays(table):
    users = seated(table)
    with pytest.raises(AppError) as refused:
        moves.apply_action(table.id, users[1], {"type": "draw"})  # not their turn
    assert refused.value.code == "not_your_turn"
    assert connection.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    assert connection.get_autocommit()
    assert connection.connection.autocommit
    assert Table.objects.get(pk=table.id).version == 0
    moves.apply_action(table.id, users[0], {"type": "draw"})
    assert Table.objects.get(pk=table.id).version == 1


@pytest.mark.django_db(transaction=True)
@needs_postgresql("the fused transaction is PostgreSQL's")
def test_a_failed_save_leaves_the_state_as_it_was(table):
    """The save and COMMIT go in one pipeline: when the save fails, neither the state nor the move is written."""
    before = Table.objects.get(pk=table.id)
    Move.objects.create(table=table, seq=1, action={}, events=[])  # the move's seq is taken
    with pytest.raises(IntegrityError):
        moves.apply_action(table.id, seated(table)[0], {"type": "draw"})
    after = Table.objects.get(pk=table.id)
    assert (after.version, after.state) == (before.version, before.state)
    assert connection.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


@pytest.mark.django_db(transaction=True)
@needs_postgresql("the fused transaction is PostgreSQL's")
def test_the_move_is_committed_before_its_hooks_run_and_nothing_runs_after_the_save(table, teacher):
    seen_from_another_connection = []

    def hook() -> None:
        def look() -> None:
            seen_from_another_connection.append(Move.objects.filter(table=table, seq=1).exists())
            connection.close()

        reader = threading.Thread(target=look)
        reader.start()
        reader.join()

    with table_rows.move_transaction():
        locked, _ = table_rows.locked_with_seats(table.id)
        locked.version += 1
        table_rows.save_move(locked, ("version",), Move(table=locked, seq=1, action={}, events=[]))
        transaction.on_commit(hook)
    assert seen_from_another_connection == [True]

    # The save ended the transaction: a statement after it would run outside it, so it is refused.
    def save_then_read() -> None:
        with table_rows.move_transaction():
            locked, _ = table_rows.locked_with_seats(table.id)
            locked.version += 1
            table_rows.save_move(locked, ("version",), Move(table=locked, seq=2, action={}, events=[]))
            Table.objects.filter(pk=table.id).exists()

    with pytest.raises(RuntimeError, match="after the move's commit"):
        save_then_read()
    assert Table.objects.get(pk=table.id).version == 2  # committed by the save, as the error says


@pytest.mark.django_db(transaction=True)
@needs_postgresql("the fused transaction is PostgreSQL's")
def test_inside_a_callers_transaction_a_move_neither_begins_nor_commits(table):
    users = seated(table)
    status = []

    def move_then_fail() -> None:
        with transaction.atomic():
            moves.apply_action(table.id, users[0], {"type": "draw"})
            status.append(connection.connection.info.transaction_status)
            raise RuntimeError("the caller's own failure")

    with pytest.raises(RuntimeError, match="the caller's"):
        move_then_fail()
    assert status == [psycopg.pq.TransactionStatus.INTRANS]  # the move did not commit the caller's transaction
    assert Table.objects.get(pk=table.id).version == 0  # rolled back with the caller's transaction


@pytest.mark.django_db(transaction=True)
@needs_postgresql("SQLite takes the ORM's statements")
def test_a_connection_keeps_one_cursor_per_statement_of_the_move_path(table):
    """So psycopg keeps each statement's loaders instead of making them for every column of every move."""
    users = seated(table)
    kept = []
    for _ in range(2):
        moves.apply_action(table.id, users[0], {"type": "draw"})
        kept.append(dict(getattr(connection.connection, table_rows.KEPT_CURSORS)))
    assert kept[0] == kept[1]
    # The locked read, the save (one per set of fields saved), and BEGIN and COMMIT's plain cursor.
    assert {table_rows._lock_sql(), None} < set(kept[0])
    assert any(sql.startswith("WITH saved AS") for sql in kept[0] if sql)
    assert not any(cursor.closed for cursor in kept[0].values())


@needs_postgresql("the compression of a column is PostgreSQL's")
@pytest.mark.django_db
def test_a_tables_state_is_compressed_with_lz4():
    """A long game's state is written on every move: lz4 writes it faster than PostgreSQL's default (migration
    0005). The project's PostgreSQL (Debian's) is built with lz4."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attcompression FROM pg_attribute WHERE attrelid = %s::regclass AND attname = 'state'",
            [Table._meta.db_table],
        )
        assert cursor.fetchone() == ("l",)
