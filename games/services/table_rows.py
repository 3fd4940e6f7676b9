"""A move's two trips to the database: the table locked and read with its seats, then its state saved with the move.

Every move locks its table's row, reads the seats with their students (who may act), saves the new state and appends
the move to the log. Through the ORM that is four statements, each compiled afresh for every move, which bench/live
showed as most of a move's own time in its process. On PostgreSQL they are two statements instead, written here once
from the models' own metadata (columns, and each field's conversions to and from the database): the lock and the
seats in one ``SELECT … FOR UPDATE OF`` (on the event loop with the lexicon's identity too), and the state's update
and the move's insert in one data-modifying ``WITH``. Other databases (SQLite on a laptop) keep the ORM's
statements. Both ways give the same model instances (``tests/games/test_table_rows.py`` compares them on
PostgreSQL).

A move's transaction (:func:`move_transaction`) also sends BEGIN with the locked read and COMMIT with the save, so a
move waits on PostgreSQL twice, not four times.
"""

import functools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models import F
from psycopg.types.json import Jsonb

from config import transport
from games import selectors
from games.engine import AppError
from games.engine.game import whole_state, with_state_change
from games.models import HistoryEntry, Move, Seat, Table, history_of
from learning.models import Student
from lexicons.models import Lexicon

NOT_FOUND = "not_found"

# What the move path reads of a seat and of its student (the rest of their fields stay deferred, as with ``only()``).
SEAT_FIELDS = ("id", "table_id", "number", "student_id", "robot", "removed")
STUDENT_FIELDS = ("id", "user_id", "classroom_id", "display_name", "active")
# What the word list on the event loop needs of the table's lexicon (lexicons.services.loaded_word_list): which keys,
# and whether the ones this process has loaded are still its current version.
LEXICON_FIELDS = ("id", "name", "language", "version", "created")


def _field(model: type[models.Model], name: str) -> models.Field:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # a concrete field, never a reverse relation
    return field


@functools.cache
def _unconnected() -> BaseDatabaseWrapper:
    """The process's one Django connection object for what needs no connection: quoting names, and the event loop's
    conversions of values (it is never connected). ``connections[alias]`` is kept per asyncio context on the loop, so
    it would give every socket's consumer an object of its own at its first move: 15 µs and 22 objects for the
    garbage collector, walked by every young collection while new and left as cycles to free when the socket closed
    (bench/README.md, "a ninth machine")."""
    return connections.create_connection(DEFAULT_DB_ALIAS)


def _col(field: models.Field, alias: str = "") -> str:
    """The field's column, quoted (and qualified by ``alias``)."""
    assert field.column is not None
    name = _unconnected().ops.quote_name(field.column)
    return f"{alias}.{name}" if alias else name


def _table_name(model: type[models.Model]) -> str:
    return _unconnected().ops.quote_name(model._meta.db_table)


# The statements are built from the models' metadata alone (table and column names), never from anything a user
# sends: every value is a parameter.
@functools.cache
def _lock_sql(on_loop: bool = False) -> str:
    """The locked read: the table's columns, its seats, and last its history's entries (:func:`_history_sql`);
    ``on_loop``: the event loop's (:data:`LoopRow` and the entries), with the seats as text, the lexicon's identity
    and the row version's ``xmin`` before the entries (a thread reads the lexicon only for a move that checks a word,
    and keeps no copy)."""
    table_columns = ", ".join(_col(f, "t") for f in Table._meta.concrete_fields)
    lexicon_columns = ", ".join(_col(_field(Lexicon, name), "l") for name in LEXICON_FIELDS)
    lexicon_id = _col(_field(Table, "lexicon"), "t")
    tail = (
        f"{_seats_sql()}::text, {lexicon_columns}, t.xmin::text, {_history_sql()} FROM {_table_name(Table)} t "
        f"LEFT JOIN {_table_name(Lexicon)} l ON {_col(_field(Lexicon, 'id'), 'l')} = {lexicon_id} "
        if on_loop
        else f"{_seats_sql()}, {_history_sql()} FROM {_table_name(Table)} t "
    )
    return f"SELECT {table_columns}, {tail}WHERE {_col(_field(Table, 'id'), 't')} = %s FOR UPDATE OF t"


def _seats_sql() -> str:
    """The seats of table ``t`` with their students, in seat order, as one JSON array of arrays."""
    seat_values = ", ".join(
        [_col(_field(Seat, name), "s") for name in SEAT_FIELDS]
        + [_col(_field(Student, name), "st") for name in STUDENT_FIELDS]
    )
    return (
        f"(SELECT COALESCE(json_agg"  # noqa: S608 - identifiers from the models, values are parameters
        f"(json_build_array({seat_values}) ORDER BY s.{_col(_field(Seat, 'number'))}), "
        f"'[]'::json) FROM {_table_name(Seat)} s LEFT JOIN {_table_name(Student)} st "
        f"ON {_col(_field(Student, 'id'), 'st')} = {_col(_field(Seat, 'student'), 's')} "
        f"WHERE {_col(_field(Seat, 'table'), 's')} = {_col(_field(Table, 'id'), 't')})"
    )


def _history_sql() -> str:
    """The history entries of table ``t`` (:class:`HistoryEntry`), as the JSON text of an object of their lists by
    key, in order; NULL when it has none."""
    key, number, entry = (_col(_field(HistoryEntry, name), "h") for name in ("key", "number", "entry"))
    return (
        f"(SELECT json_object_agg(x.k, x.e) FROM (SELECT {key} AS k, json_agg({entry} ORDER BY {number}) AS e "  # noqa: S608
        f"FROM {_table_name(HistoryEntry)} h WHERE {_col(_field(HistoryEntry, 'table'), 'h')} = "
        f"{_col(_field(Table, 'id'), 't')} GROUP BY {key}) x)::text"
    )


def _made_state(row: Sequence[Any], history: str | None) -> dict[str, Any] | None:
    """The whole state of a table's row and its history entries' text (:func:`_history_sql`), for a game with a
    history; ``None`` for one without (its state is whole in the row's text, parsed when the table is made)."""
    keys = history_of(row[_game_at()])
    if not keys:
        return None
    stored = orjson.loads(row[_state_at()])
    return whole_state(stored, keys, orjson.loads(history) if history is not None else {})


class _Trip:
    """A move's transaction on PostgreSQL: begun by the locked read, committed by the save (see move_transaction)."""

    begun = False
    committed = False

    def guard(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        # After the save the transaction is over: a statement there would run alone, outside the move's atomicity.
        if self.committed:
            raise RuntimeError(f"A statement after the move's commit, outside its transaction: {sql[:80]}")
        return execute(sql, params, many, context)


_trip: ContextVar[_Trip | None] = ContextVar("move_transaction", default=None)


@contextmanager
def move_transaction() -> Iterator[None]:
    """``transaction.atomic()`` for one move: lock (:func:`locked_with_seats`), rules, save (:func:`save_move`).

    psycopg sends Django's BEGIN and COMMIT as round trips of their own (and waits for BEGIN even in pipeline mode),
    so a move waited on PostgreSQL four times; on two busy cores each wait is a hop to the database's process and
    back. Here, as the outermost transaction on PostgreSQL, BEGIN goes in one pipeline with the locked read and
    COMMIT in one with the save: two waits. Django's atomic block still frames it (its commit finds nothing left to
    commit; a refusal or an error rolls back as ever; the on-commit hooks run after it, so the move is durable before
    anything is broadcast). The save is then the block's last statement: one after it raises. Elsewhere (SQLite, or
    inside a caller's transaction) this is ``transaction.atomic()``."""
    db = _connection()
    if db.vendor != "postgresql" or db.in_atomic_block:
        with transaction.atomic():
            yield
        return
    trip = _Trip()
    token = _trip.set(trip)
    try:
        with transaction.atomic(), db.execute_wrapper(trip.guard):
            yield
    finally:
        _trip.reset(token)


def _outermost_trip(db: BaseDatabaseWrapper) -> _Trip | None:
    """This move's :class:`_Trip` if this code runs directly in it (not in a savepoint of a nested block)."""
    trip = _trip.get()
    return trip if trip is not None and len(db.atomic_blocks) == 1 else None


def _connection() -> BaseDatabaseWrapper:
    # The thread's connection itself: every attribute of ``django.db.connection`` is looked up again through the
    # thread-local handler, which on this path (dozens of uses a move) cost more than the rules did.
    return connections[DEFAULT_DB_ALIAS]


class _PreparingCursor(psycopg.Cursor):
    """Parameters bound by the server, and every statement prepared on the connection the first time it runs there:
    PostgreSQL then parses and plans each of the two statements once per connection instead of once per move
    (Django binds on the client and prepares nothing, so that connection poolers in transaction mode work; this
    project's pool is psycopg's own, inside each process, which keeps a connection's prepared statements). The
    settings lift Django's ``prepare_threshold`` of None, under which psycopg ignores ``prepare=True``."""

    def execute(self, query: Any, params: Any = None, *, prepare: bool | None = None, binary: bool | None = None):
        return super().execute(query, params, prepare=True, binary=binary)

    def _send_query_prepared(self, name: bytes, pgq: Any, *, binary: bool | None = None) -> None:
        # Kept as an unprepared execute keeps it: Django's query log (DEBUG, tests) reads the statement from it.
        self._query = pgq
        super()._send_query_prepared(name, pgq, binary=binary)


# A cursor that runs the same statement again keeps its loaders, which psycopg otherwise makes afresh for every
# column of every result (the time zone's among them). So each pooled connection keeps its cursors for this path,
# one per statement, and one plain cursor for BEGIN and COMMIT; they go with the connection.
KEPT_CURSORS = "_logos_move_cursors"


def _cursor(db: BaseDatabaseWrapper, statement: str | None) -> Any:
    """The connection's kept cursor for ``statement`` (a :class:`_PreparingCursor`; ``None``: the plain one for BEGIN
    and COMMIT), wrapped by Django as its own cursors are (logged, counted). Not to be closed: it is reused."""
    db.ensure_connection()
    db.validate_thread_sharing()
    raw = db.connection
    kept: dict[str | None, psycopg.Cursor] = raw.__dict__.setdefault(KEPT_CURSORS, {})
    cursor = kept.get(statement)
    if cursor is None or cursor.closed:
        cursor = kept[statement] = (psycopg.Cursor if statement is None else _PreparingCursor)(raw)
    wrapper = CursorDebugWrapper if db.queries_logged else CursorWrapper
    return wrapper(cursor, db)


# JSON columns (a table's state and options, a move's action and events) are read and written with orjson, not the
# standard library's encoder and decoder that the ORM uses: several times faster on the state every move reads and
# writes. The values are the same; a field with an encoder or a decoder of its own is left to the ORM.
def _plain_json(field: models.Field) -> bool:
    return isinstance(field, models.JSONField) and field.encoder is None and field.decoder is None


def _from_db(db: BaseDatabaseWrapper, field: models.Field, value: Any) -> Any:
    """A value as the ORM would give it (JSON fields arrive as text from Django's psycopg set-up)."""
    if value is not None and _plain_json(field):
        return orjson.loads(value)
    convert = getattr(field, "from_db_value", None)
    return value if convert is None else convert(value, None, db)


def _to_db(db: BaseDatabaseWrapper, field: models.Field, value: Any) -> Any:
    """A value as the ORM would send it (SQL NULL for ``None``, as the ORM sends it for a JSON field)."""
    prepared = field.get_db_prep_save(value, db)
    if isinstance(prepared, Jsonb) and _plain_json(field):
        return Jsonb(prepared.obj, dumps=transport.json_bytes)
    return prepared


def _seats(alias: str, table: Table | None, rows: Sequence[Sequence[Any]]) -> list[Seat]:
    seats = []
    for row in rows:
        seat = Seat.from_db(alias, list(SEAT_FIELDS), list(row[: len(SEAT_FIELDS)]))
        if table is not None:
            seat.table = table
        student = row[len(SEAT_FIELDS) :]
        if student[0] is not None:
            seat.student = Student.from_db(alias, list(STUDENT_FIELDS), list(student))
        seats.append(seat)
    return seats


def locked_with_seats(table_id: int) -> tuple[Table, list[Seat]]:
    """The table's row, locked until the end of the caller's transaction, and its seats in seat order with their
    students. Raises :class:`AppError` ``not_found`` if there is no such table."""
    db = _connection()
    if db.vendor != "postgresql":
        table = locked_table(table_id)
        return table, selectors.seats_of(table)
    cursor = _cursor(db, _lock_sql())  # connects if need be
    raw = db.connection
    trip = _outermost_trip(db)
    if trip is not None and not trip.begun and raw.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
        # Our BEGIN, sent with the read (psycopg, left to itself, would send its own first and wait for it).
        # Autocommit only tells psycopg not to; the BEGIN makes this a transaction, which Django's block ends.
        raw.autocommit = True
        trip.begun = True
        begin = _cursor(db, None)
        with db.wrap_database_errors, raw.pipeline():
            begin.execute("BEGIN")
            cursor.execute(_lock_sql(), [table_id])
    else:
        cursor.execute(_lock_sql(), [table_id])
    return _locked_row(db, cursor.fetchone())


def _locked_row(db: BaseDatabaseWrapper, row: Sequence[Any] | None) -> tuple[Table, list[Seat]]:
    """The table and its seats from the row of :func:`_lock_sql`."""
    if row is None:
        raise AppError(NOT_FOUND, "There is no such table.")
    table = _table_of(db, row, _made_state(row, row[_width() + 1]))
    seats = row[_width()]
    return table, _seats(db.alias, table, orjson.loads(seats) if isinstance(seats, str) else seats)


def _table_of(db: BaseDatabaseWrapper, row: Sequence[Any], state: dict[str, Any] | None = None) -> Table:
    """The table from the first columns of a locked read's row (``state``: its state, already made: the row's
    text is then not parsed)."""
    fields = Table._meta.concrete_fields
    values = [
        state if state is not None and i == _state_at() else _from_db(db, f, v)
        for i, (f, v) in enumerate(zip(fields, row, strict=False))
    ]
    return Table.from_db(db.alias, [f.attname for f in fields], values)


def locked_table(table_id: int) -> Table:
    """The table's row alone, locked until the end of the caller's transaction (through the ORM: the teacher's
    and the lesson's changes, which are not on the path of every move)."""
    if connection.vendor == "sqlite":
        # SQLite has no row locks and fails (rather than waits) when two readers both try to write; an empty
        # update takes its write lock first, so racing transactions queue on the busy timeout instead.
        Table.objects.filter(pk=table_id).update(version=F("version"))
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise AppError(NOT_FOUND, "There is no such table.")
    return table


def save_move(table: Table, fields: Sequence[str], move: Move) -> None:
    """Save ``fields`` of the locked ``table`` and insert ``move`` (its ``pk`` is set), in the caller's transaction."""
    db = _connection()
    if db.vendor != "postgresql":
        table.save(update_fields=list(fields))
        move.save(force_insert=True)
        return
    sql, params = _save_statement(db, table, fields, move)
    cursor = _cursor(db, sql)
    trip = _outermost_trip(db)
    if trip is not None and trip.begun and not trip.committed:
        commit = _cursor(db, None)
        with db.wrap_database_errors, db.connection.pipeline():
            cursor.execute(sql, params)
            commit.execute("COMMIT")
        trip.committed = True  # durable now; Django's block finds nothing to commit and runs the hooks
    else:
        cursor.execute(sql, params)
    _saved(db, move, cursor.fetchone())
    table.history_saved()


def _save_statement(db: BaseDatabaseWrapper, table: Table, fields: Sequence[str], move: Move) -> tuple[str, list[Any]]:
    """The save's statement (:func:`_save_sql`) and its parameters."""
    history = _saves_history(table, fields)
    return _save_sql(tuple(fields), history), _save_params(db, table, fields, move, history=history)


def _saves_history(table: Table, fields: Sequence[str]) -> bool:
    return "state" in fields and bool(history_of(table.game))


def _save_params(
    db: BaseDatabaseWrapper,
    table: Table,
    fields: Sequence[str],
    move: Move,
    guard: Sequence[Any] = (),
    history: bool = False,
) -> list[Any]:
    """The saved fields' values, the table's id, ``guard``'s values (:func:`_loop_save_sql`), the move's values, and
    with ``history`` the history's (:func:`_history_writes_sql`)."""
    params = [_to_db(db, f, f.pre_save(table, False)) for f in (_field(Table, name) for name in fields)]
    params.append(table.pk)
    params += guard
    params += [_to_db(db, f, f.pre_save(move, True)) for f in _inserted_fields()]
    if history:
        writes, trims = table.history_writes()
        params += [table.pk, transport.text(writes), transport.text(trims), table.pk]
    return params


def _history_writes_sql(after: str) -> str:
    """The statement's parts (``WITH`` queries) that write the history entries a move changed
    (:meth:`Table.history_writes`: their rows inserted or updated, and a shrunk list's entries from its length on
    deleted), each only if the query ``after`` returned a row (the table's update, or the move's insert). Parameters:
    the table's id, the entries as JSON, the lengths as JSON, the table's id."""
    table = _table_name(HistoryEntry)
    table_id, key, number, entry = (_col(_field(HistoryEntry, n)) for n in ("table", "key", "number", "entry"))
    return (
        f"entries AS (INSERT INTO {table} ({table_id}, {key}, {number}, {entry}) "  # noqa: S608 - as in _lock_sql
        f"SELECT %s::bigint, e.key, e.number, e.entry FROM {after}, "
        f"jsonb_to_recordset(%s::jsonb) AS e(key text, number integer, entry jsonb) "
        f"ON CONFLICT ({table_id}, {key}, {number}) DO UPDATE SET {entry} = EXCLUDED.{entry}), "
        f"trimmed AS (DELETE FROM {table} h USING {after}, jsonb_each_text(%s::jsonb) AS l(key, length) "
        f"WHERE h.{table_id} = %s AND h.{key} = l.key AND h.{number} >= l.length::integer)"
    )


def _saved(db: BaseDatabaseWrapper, move: Move, row: Sequence[Any] | None) -> None:
    assert row is not None  # INSERT … RETURNING always returns its row
    (move.pk,) = row
    move._state.adding = False
    move._state.db = db.alias


# -- the event loop's trips (games/services/loop_moves.py) ------------------------------------------------------------
# On one of the loop's own connections (config/asyncdb.py, in autocommit). A move decided on the table's row as the
# loop read it sends BEGIN with its locked read and COMMIT with its save, as move_transaction does on a thread; a
# refusal in between ends it with COMMIT, having only read (:func:`end_read_on`), an error with ROLLBACK
# (:func:`rollback_on`). A move decided on a copy of the row kept from the move before
# sends only its save, guarded: one statement, its own transaction. The rows convert through the same fields as above;
# a Django connection object lends its conversions only and is never connected here (:func:`_unconnected`).

# A table's row as the loop reads it (``_lock_sql(on_loop=True)``), unconverted: the table's columns, its seats as
# the JSON text PostgreSQL made of them (compared as they are by the guarded save), its lexicon's identity (whose
# version tells whether this process has the keys loaded) and the row version's ``xmin``, which any change to the
# row changes.
LoopRow = tuple[Any, ...]


def _width() -> int:
    return len(Table._meta.concrete_fields)


@dataclass(frozen=True)
class Copy:
    """A process's copy of a table's row (:mod:`games.services.loop_moves`), and its state when the process holds it
    already made: the state its own move made, or one it made from a broadcast move's change (:func:`followed`).
    Parsing a long game's state from the row's text was most of what grew with the game in a move's cost. Without
    ``state`` the row has the state's text; with it, the row's may be ``None``."""

    row: LoopRow
    state: dict[str, Any] | None = None


def loop_objects(copy: Copy) -> tuple[Table, list[Seat], Lexicon | None]:
    """The table (a new instance every time: a move changes it), its seats and its lexicon (identity only) of
    ``copy``."""
    db, row = _unconnected(), copy.row
    table = _table_of(db, row, copy.state)
    seats = list(_loop_seats(row[_width()]))
    if table.lexicon_id is None:
        return table, seats, None
    values = row[_width() + 1 : _width() + 1 + len(LEXICON_FIELDS)]
    fields = [_field(Lexicon, name) for name in LEXICON_FIELDS]
    converted = [_from_db(db, f, v) for f, v in zip(fields, values, strict=True)]
    return table, seats, Lexicon.from_db(db.alias, list(LEXICON_FIELDS), converted)


@functools.lru_cache(maxsize=4096)
def _loop_seats(text: str) -> tuple[Seat, ...]:
    """The seats and students of a table's seats as the loop reads them, made once per text: a move only reads them,
    and any change to them changes the text (the guarded save compares it). Their ``table`` is not set: on the loop
    it would be read from the database, which sends the move to a thread."""
    return tuple(_seats(_unconnected().alias, None, orjson.loads(text)))


async def locked_with_seats_on(conn: psycopg.AsyncConnection, table_id: int) -> Copy:
    """BEGIN, then the table's row locked and read with its seats, its lexicon and its history, in one round trip,
    as a copy (with the whole state made, for a game with a history). Raises :class:`AppError` ``not_found`` (the
    transaction left open)."""
    async with conn.pipeline():
        await conn.execute("BEGIN")
        locked = await conn.execute(_lock_sql(on_loop=True), [table_id], prepare=True)
    found = await locked.fetchone()
    if found is None:
        raise AppError(NOT_FOUND, "There is no such table.")
    *row, history = found
    return Copy(tuple(row), _made_state(row, history))


async def save_move_on(
    conn: psycopg.AsyncConnection, row: LoopRow, table: Table, fields: Sequence[str], move: Move
) -> LoopRow:
    """:func:`save_move` and COMMIT, in one round trip, in the transaction :func:`locked_with_seats_on` began
    (``row``): the move is durable when this returns. Returns the table's row as saved."""
    sql, params = _loop_save_statement(table, fields, move, None)
    async with conn.pipeline():
        saved = await conn.execute(sql, params, prepare=True)
        await conn.execute("COMMIT")
    found = await saved.fetchone()
    assert found is not None  # the row is locked: the update found it
    table.history_saved()
    return _saved_on(row, move, found)


async def save_move_if_unchanged_on(
    conn: psycopg.AsyncConnection, copy: LoopRow, table: Table, fields: Sequence[str], move: Move
) -> LoopRow | None:
    """Save a move decided on ``copy``, a row read (or followed) earlier, in one statement outside any transaction
    (durable when this returns), but only if the table's row, its seats and its lexicon's version are still those
    of the copy. Returns the table's row as saved, or ``None``: something changed, and nothing was saved."""
    sql, params = _loop_save_statement(table, fields, move, copy)
    saved = await conn.execute(sql, params, prepare=True)
    found = await saved.fetchone()
    if found is None:
        return None
    table.history_saved()
    return _saved_on(copy, move, found)


def _loop_save_statement(
    table: Table, fields: Sequence[str], move: Move, copy: LoopRow | None
) -> tuple[str, list[Any]]:
    guard = () if copy is None else (copy[-1], copy[_width()], copy[_width() + 1 + LEXICON_FIELDS.index("version")])
    history = _saves_history(table, fields)
    sql = _loop_save_sql(tuple(fields), copy is not None, history)
    return sql, _save_params(_unconnected(), table, fields, move, guard, history)


@functools.cache
def _loop_save_sql(fields: tuple[str, ...], guarded: bool, history: bool = False) -> str:
    """:func:`_save_sql` returning the table's row as saved (with its new ``xmin``); ``guarded``: only if the row,
    the seats and the lexicon's version are still a copy's (the move is inserted only with the update)."""
    assignments = ", ".join(f"{_col(_field(Table, name))} = %s" for name in fields)
    version = _field(Lexicon, "version")
    guard = (
        f" AND t.xmin = %s::xid AND {_seats_sql()}::text = %s AND (SELECT {_col(version, 'l')} FROM "  # noqa: S608
        f"{_table_name(Lexicon)} l WHERE {_col(_field(Lexicon, 'id'), 'l')} = {_col(_field(Table, 'lexicon'), 't')}) "
        f"IS NOT DISTINCT FROM %s::{version.db_type(_unconnected())}"
        if guarded
        else ""
    )
    # Not the state: the process keeps the state its move made (:class:`Copy`), and PostgreSQL's text of a long
    # game's state costs a millisecond to make and send back.
    returned = ", ".join(_col(f, "t") for f in Table._meta.concrete_fields if f.name != "state")
    columns = ", ".join(_col(f) for f in _inserted_fields())
    # Typed, as a VALUES list would be: in a SELECT PostgreSQL would take an untyped parameter (None) for text.
    values = ", ".join(f"%s::{f.db_type(_unconnected())}" for f in _inserted_fields())
    return (
        f"WITH saved AS (UPDATE {_table_name(Table)} t SET {assignments} "  # noqa: S608 - as in _lock_sql
        f"WHERE {_col(_field(Table, 'id'), 't')} = %s{guard} RETURNING {returned}, t.xmin::text AS row_xmin), "
        f"moved AS (INSERT INTO {_table_name(Move)} ({columns}) SELECT {values} FROM saved "
        f"RETURNING {_col(_field(Move, 'id'))}) "
        + (f", {_history_writes_sql('saved')} " if history else "")
        + "SELECT moved.*, saved.* FROM moved, saved"
    )


def _saved_on(row: LoopRow, move: Move, found: Sequence[Any]) -> LoopRow:
    """The move's id set, and ``row`` with the table's columns and ``xmin`` as saved, the state's text ``None`` (the
    saving process holds the state made: :class:`Copy`)."""
    _saved(_unconnected(), move, found[:1])
    columns = list(found[1 : _width()])
    columns.insert(_state_at(), None)
    return (*columns, *row[_width() : -1], found[-1])


async def rollback_on(conn: psycopg.AsyncConnection) -> None:
    """End the move's transaction without saving anything (an error)."""
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        await conn.execute("ROLLBACK")


async def end_read_on(conn: psycopg.AsyncConnection) -> None:
    """End the move's transaction that has only read (the locked read, then a refusal): COMMIT releases the lock as
    ROLLBACK would, and keeps the connection's prepared statements, which psycopg deallocates on any ROLLBACK (the
    connection's next moves would prepare them again, a round trip each). A failed transaction is rolled back."""
    if conn.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS:
        await conn.execute("COMMIT")
    else:
        await rollback_on(conn)


# A move's broadcast carries the table's row as the move saved it (:func:`row_change`), so that every server process
# with a page at the table has a current copy (:func:`followed`) and decides the next move there on it. A channel
# layer carries plain values: datetimes go as ISO text. It never reaches a page: a connection forwards only its own
# copy of the broadcast.
@functools.cache
def _row_fields() -> tuple[models.Field | None, ...]:
    """The field of each value of a :data:`LoopRow` (``None``: the seats' text, the xmin)."""
    return (*Table._meta.concrete_fields, None, *(_field(Lexicon, name) for name in LEXICON_FIELDS), None)


@functools.cache
def _version_at() -> int:
    return Table._meta.concrete_fields.index(_field(Table, "version"))


@functools.cache
def _game_at() -> int:
    return Table._meta.concrete_fields.index(_field(Table, "game"))


@functools.cache
def _state_at() -> int:
    return Table._meta.concrete_fields.index(_field(Table, "state"))


def row_change(saved: LoopRow, base: str, state: dict[str, Any], change: dict[str, Any] | None) -> dict[str, Any]:
    """The row a move ``saved`` (its ``state`` made), as a broadcast carries it. With ``change`` (the move's
    :func:`games.engine.game.state_change` against the row whose ``xmin`` is ``base``) the row goes without the state's
    text: a process holding the state of ``base`` makes the new one from the change, and one that does not drops its
    copy. Without it (a game with no history: a small state), with the state's text."""
    values = [v.isoformat() if isinstance(v, datetime) else v for v in saved]
    if change is None:
        values[_state_at()] = transport.text(state)
        return {"row": values, "base": base, "state": None}
    return {"row": values, "base": base, "state": transport.text(change)}


def followed(copy: Copy | None, change: dict[str, Any]) -> Copy | None:
    """The copy to keep after a move broadcast ``change`` (:func:`row_change`): ``copy`` itself if it is as recent (a
    late broadcast, or this process's own move); else the row with its state, or ``None`` when the state cannot be
    made here (the change was made from a row this process does not hold)."""
    version = _version_at()
    values = change["row"]
    if copy is not None and values[version] <= copy.row[version]:
        return copy
    row = tuple(
        datetime.fromisoformat(v) if v is not None and isinstance(f, models.DateTimeField) else v
        for f, v in zip(_row_fields(), values, strict=True)
    )
    if change["state"] is None:
        return Copy(row)
    if copy is None or copy.state is None or copy.row[-1] != change["base"]:
        return None
    return Copy(row, with_state_change(copy.state, orjson.loads(change["state"])))


def _inserted_fields() -> list[models.Field]:
    return [f for f in Move._meta.concrete_fields if not f.primary_key]


@functools.cache
def _save_sql(fields: tuple[str, ...], history: bool = False) -> str:
    assignments = ", ".join(f"{_col(_field(Table, name))} = %s" for name in fields)
    columns = ", ".join(_col(f) for f in _inserted_fields())
    placeholders = ", ".join(["%s"] * len(_inserted_fields()))
    move_id = _col(_field(Move, "id"))
    saved = f"saved AS (UPDATE {_table_name(Table)} SET {assignments} WHERE {_col(_field(Table, 'id'))} = %s)"  # noqa: S608 - as in _lock_sql
    moved = f"INSERT INTO {_table_name(Move)} ({columns}) VALUES ({placeholders}) RETURNING {move_id}"  # noqa: S608
    if not history:
        return f"WITH {saved} {moved}"
    # The history's writes follow the move's insert (their parts of the statement are data-modifying WITH queries).
    return f"WITH {saved}, moved AS ({moved}), {_history_writes_sql('moved')} SELECT {move_id} FROM moved"  # noqa: S608
