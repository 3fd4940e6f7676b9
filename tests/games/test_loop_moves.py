"""The move played on the event loop (games/services/loop_moves.py) is the move a database thread plays: the same
state, log, refusals and messages; durable before its messages exist; rolled back on a refusal or an error; and
sent to a thread where the loop must not do the work (the teacher, long rules, the database beyond the locked read)."""

import asyncio
import contextvars
import json
import logging
from datetime import timedelta
from typing import Any

import orjson
import psycopg
import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connections, transaction
from django.utils import timezone

from config import asyncdb, transport
from config.dbthreads import db_async
from config.transport import Deferred
from games import selectors
from games.engine import AppError
from games.models import Move, Table
from games.services import lessons, loop_moves, moderation, moves, table_rows
from games.services.table_rows import Copy
from learning import services as learning_services
from learning.models import Student
from lexicons import services as lexicon_services
from lexicons.models import Entry, Lexicon
from tests.conftest import needs_postgresql
from tests.games.conftest import WORDS, seated
from tests.games.test_consumers import join

pytestmark = [
    needs_postgresql("the move on the event loop uses psycopg's async connections"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("toy_game", "disconnect_communicators"),
]

db = database_sync_to_async


@pytest.fixture
def on_threads(monkeypatch) -> list[dict[str, Any]]:
    """Every move the loop's path hands to a database thread."""
    handed: list[dict[str, Any]] = []
    on_thread = loop_moves._on_thread

    async def counted(table_id: int, user, action: dict[str, Any]) -> Deferred:
        handed.append(action)
        return await on_thread(table_id, user, action)

    monkeypatch.setattr(loop_moves, "_on_thread", counted)
    return handed


@pytest.fixture
def twin_tables(teacher, classroom, students):
    """Two tables of two seats at one state: one to play on the loop, the other on a thread."""
    fourth = learning_services.join_classroom(classroom.join_code, "Dmitri")
    ids = [s.id for s in [*students, fourth]]
    lesson = lessons.start_lesson(teacher, classroom, "toy", None, {}, [ids[:2], ids[2:]])
    loop, thread = lesson.tables.order_by("number")
    Table.objects.filter(pk=thread.pk).update(state=loop.state, version=loop.version)
    thread.refresh_from_db()
    return loop, thread


def _messages(deferred: Deferred) -> list[tuple[str, Any]]:
    """What each recipient is sent, without what names the table itself (its id, number, players and their names)."""
    found = []
    for group, message in deferred.messages:
        if message["type"] == "table.event":
            for recipient, text in sorted(message["copies"].items()):
                copy = json.loads(text)
                del copy["table"]
                found.append((recipient, copy))
        else:
            row = dict(message["row"])
            for key in ("id", "number", "url", "players", "clock", "summary", "to_act", "last_move", "winners"):
                row.pop(key)
            found.append((group.split("-")[0], row))
    return found


def _move_row(move: Move) -> tuple:
    return (move.seq, move.kind, move.seat, move.action, move.events)


async def test_a_move_on_the_loop_is_the_move_a_thread_plays(twin_tables, on_threads, monkeypatch):
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)  # the rules note when a card was played
    loop_table, thread_table = twin_tables
    start = loop_table.version
    loop_users, thread_users = await db(seated)(loop_table), await db(seated)(thread_table)
    state = loop_table.state
    plays = [(0, {"type": "draw"}), (0, {"type": "say", "word": "λόγος"})]
    plays += [(0, {"type": "play", "card": state["hands"][0][0]}), (1, {"type": "play", "card": state["hands"][1][0]})]
    for seat, action in plays:
        on_loop = await loop_moves.apply_action(loop_table.id, loop_users[seat], action)
        _, on_thread = await db_async(moves.apply_action_deferred)(thread_table.id, thread_users[seat], action)
        assert _messages(on_loop) == _messages(on_thread)
        assert len(on_loop.later) == len(on_thread.later)  # the learning job of the word said
    assert on_threads == []  # every move above was played on the loop
    loop_table, thread_table = (
        await db(Table.objects.get)(pk=loop_table.pk),
        await db(Table.objects.get)(pk=thread_table.pk),
    )
    assert loop_table.version == thread_table.version == start + len(plays)
    assert loop_table.state == thread_table.state
    assert (loop_table.status, loop_table.updated is not None) == (thread_table.status, True)
    # The moves after the start (whose deal differs: only the state was copied).
    logs = [
        await db(list)(Move.objects.filter(table=t, seq__gt=start).order_by("seq")) for t in (loop_table, thread_table)
    ]
    assert [_move_row(m) for m in logs[0]] == [_move_row(m) for m in logs[1]]
    assert [m.actor_id for m in logs[0]] == [loop_users[s].id for s, _ in plays]


async def test_the_move_is_committed_before_its_messages_exist(table):
    users = await db(seated)(table)
    deferred = await loop_moves.apply_action(table.id, users[0], {"type": "draw"})
    # Read from a database thread's own connection: the loop's transaction is over, not merely sent.
    assert await db(selectors.table_version)(table.id) == table.version + 1
    assert [m["seq"] for _, m in deferred.messages if m["type"] == "table.event"] == [table.version + 1]


@pytest.mark.parametrize("refusal", ["out_of_turn", "not_seated", "paused", "finished", "no_table", "shape", "type"])
async def test_a_refusal_is_the_threads_and_changes_nothing(table, teacher, refusal, on_threads, caplog):
    users = await db(seated)(table)
    outsider = await db(learning_services.join_classroom)(table.lesson.classroom.join_code, "Eve")
    user, table_id, action = users[0], table.id, {"type": "draw"}
    if refusal == "out_of_turn":
        user = users[1]
    elif refusal == "not_seated":
        user = await db(lambda: outsider.user)()
    elif refusal == "paused":
        await db(moderation.pause_table)(teacher, table.id)
    elif refusal == "finished":
        await db(Table.objects.filter(pk=table.id).update)(status=Table.Status.FINISHED)
    elif refusal == "no_table":
        table_id = table.id + 1000
    elif refusal == "shape":
        action = ["draw"]  # type: ignore[assignment]
    else:
        action = {"type": "fly"}
    version = await db(selectors.table_version)(table.id)
    with pytest.raises(AppError) as on_loop:
        await loop_moves.apply_action(table_id, user, action)
    with pytest.raises(AppError) as on_thread:
        await db_async(moves.apply_action)(table_id, user, action)
    assert (on_loop.value.code, on_loop.value.message) == (on_thread.value.code, on_thread.value.message)
    assert on_threads == []
    assert await db(selectors.table_version)(table.id) == version
    if refusal in ("out_of_turn", "type", "shape", "not_seated"):
        # The lock is released and the connection handed back clean: the next move plays at once.
        await asyncio.wait_for(loop_moves.apply_action(table.id, users[0], {"type": "draw"}), timeout=5)
        assert await db(selectors.table_version)(table.id) == version + 1
    pool = await asyncdb.pool()
    assert pool is not None
    assert pool.get_stats()["pool_available"] == pool.get_stats()["pool_size"]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def _prepared_statements() -> list[str]:
    """The names of the statements prepared on the loop's connection (one, in the test that asks)."""
    pool = await asyncdb.pool()
    assert pool is not None
    async with pool.connection() as conn:
        found = await conn.execute("SELECT name FROM pg_prepared_statements ORDER BY name")
        return [name for (name,) in await found.fetchall()]


@pytest.mark.parametrize("refusal", ["out_of_turn", "off_loop"])
async def test_a_refusal_on_the_row_keeps_the_connections_prepared_statements(
    table, toy_game, settings, statements, refusal
):
    """A refusal (or a move sent to a thread) ends the locked read's transaction with COMMIT: psycopg deallocates every
    prepared statement of the connection on a ROLLBACK, and the next moves would prepare them again, a round trip
    each."""
    settings.DATABASE_LOOP_CONNECTIONS = 1  # the refusal's connection is the next move's
    users = await db(seated)(table)
    await loop_moves.apply_action(table.id, users[0], {"type": "draw"})  # the locked read and the save prepared
    loop_moves.forget(table.id)  # every move here reads the row under its lock
    prepared = await _prepared_statements()
    assert len(prepared) == 2
    version = await db(selectors.table_version)(table.id)
    statements.clear()
    if refusal == "out_of_turn":
        with pytest.raises(AppError):
            await loop_moves.apply_action(table.id, users[1], {"type": "draw"})
    else:
        with pytest.MonkeyPatch.context() as patched:
            patched.setattr(type(toy_game), "long_actions", frozenset({"draw"}))
            await loop_moves.apply_action(table.id, users[0], {"type": "draw"})  # played on a thread
    assert statements[-1] == "COMMIT"
    assert "ROLLBACK" not in statements
    assert await _prepared_statements() == prepared
    loop_moves.forget(table.id)
    statements.clear()
    await loop_moves.apply_action(table.id, users[0], {"type": "draw"})  # on the statements prepared before
    assert statements[0] == "BEGIN"
    assert await _prepared_statements() == prepared
    assert await db(selectors.table_version)(table.id) == version + (1 if refusal == "out_of_turn" else 2)


@pytest.mark.parametrize("copy", [False, True], ids=["read", "copy"])
async def test_a_failed_save_changes_nothing_and_sends_nothing(table, monkeypatch, copy):
    users = await db(seated)(table)
    start = table.version
    if copy:  # the move is decided on the copy kept from this one
        await loop_moves.apply_action(table.id, users[0], {"type": "say", "word": "λόγος"})
        start += 1
    statement = loop_moves.table_rows._loop_save_statement

    def broken(*args: Any) -> tuple[str, list[Any]]:
        sql, params = statement(*args)
        return sql.replace("INSERT INTO", "INSERT INTO nowhere_", 1), params

    monkeypatch.setattr(loop_moves.table_rows, "_loop_save_statement", broken)
    with pytest.raises(Exception, match="nowhere_"):
        await loop_moves.apply_action(table.id, users[0], {"type": "draw"})
    monkeypatch.setattr(loop_moves.table_rows, "_loop_save_statement", statement)
    assert await db(selectors.table_version)(table.id) == start
    assert await db(Move.objects.filter(table=table).count)() == 1 + start - table.version  # the start's and ours
    await asyncio.wait_for(loop_moves.apply_action(table.id, users[0], {"type": "draw"}), timeout=5)
    assert await db(selectors.table_version)(table.id) == start + 1


@pytest.mark.parametrize("copy", [False, True], ids=["read", "copy"])
async def test_moves_racing_at_one_table_take_turns_at_its_lock(table, copy):
    users = await db(seated)(table)
    if copy:  # every racer decides on the same copy; one save finds the row unchanged
        await loop_moves.apply_action(table.id, users[0], {"type": "say", "word": "λόγος"})
        table = await db(Table.objects.get)(pk=table.pk)
    card = table.state["hands"][0][0]
    results = await asyncio.gather(
        *(loop_moves.apply_action(table.id, users[0], {"type": "play", "card": card}) for _ in range(3)),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, AppError)]
    assert len(refused) == 2  # the first play passed the turn; the others find it gone
    assert await db(selectors.table_version)(table.id) == table.version + 1


async def test_the_teacher_acts_on_a_thread(table, teacher, on_threads):
    deferred = await loop_moves.apply_action(table.id, teacher, {"type": "skip"})
    assert on_threads == [{"type": "skip"}]
    assert await db(selectors.table_version)(table.id) == table.version + 1
    assert deferred.messages


async def test_long_rules_are_played_on_a_thread(table, toy_game, on_threads, monkeypatch):
    monkeypatch.setattr(type(toy_game), "long_actions", frozenset({"draw"}))
    users = await db(seated)(table)
    await loop_moves.apply_action(table.id, users[0], {"type": "draw"})
    await loop_moves.apply_action(table.id, users[0], {"type": "say", "word": "λόγος"})
    assert on_threads == [{"type": "draw"}]
    assert await db(selectors.table_version)(table.id) == table.version + 2


async def test_words_that_need_the_database_are_checked_on_a_thread(table, on_threads, monkeypatch):
    """On the loop the rules get the word list of what is loaded; asked for more, they are played again on a
    thread, from the start (nothing of the first attempt is kept)."""

    class NotLoaded:
        language = "grc"

        def normalise(self, text: str) -> str:
            raise selectors.NeedsDatabase("not loaded")

        def is_word(self, key: str) -> bool:
            raise selectors.NeedsDatabase("not loaded")

    def word_list_for(lexicon_id: int | None, lexicon: Lexicon | None = None) -> Any:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return WORDS  # a database thread
        return NotLoaded()

    monkeypatch.setattr(selectors, "word_list_for", word_list_for)
    users = await db(seated)(table)
    said = {"type": "say", "word": "λόγος"}
    deferred = await loop_moves.apply_action(table.id, users[0], said)
    assert on_threads == [said]
    assert await db(selectors.table_version)(table.id) == table.version + 1
    assert [m["seq"] for _, m in deferred.messages if m["type"] == "table.event"] == [table.version + 1]


@pytest.mark.parametrize("asked", ["keys", "analyses"])
async def test_a_loaded_word_list_reads_nothing(asked):
    """Keys this process has not loaded, or a word's analyses, raise NeedsDatabase; loaded keys of the lexicon's
    current version answer; a new version is not answered from the old keys."""
    lexicon = await db(Lexicon.objects.create)(name="Mini", language="grc", version=1, last_version=1)
    await db(Entry.objects.create)(lexicon=lexicon, version=1, form="λόγος", key="λογος")
    words = selectors.LoadedWordList(lexicon)
    with pytest.raises(selectors.NeedsDatabase):
        words.is_word("λογος") if asked == "keys" else words.analyses("λογος")
    await db(lexicon_services.word_list)(lexicon.pk)  # a thread loads the keys
    loaded = selectors.LoadedWordList(lexicon)
    if asked == "keys":
        assert loaded.is_word("λογος")
        assert not loaded.is_word("αγαπη")
    else:
        with pytest.raises(selectors.NeedsDatabase):
            loaded.analyses("λογος")
    lexicon.version = 2  # replaced since: the keys in memory are the old version's
    newer = selectors.LoadedWordList(lexicon)
    with pytest.raises(selectors.NeedsDatabase):
        newer.is_word("λογος")


async def test_a_students_move_from_the_socket_is_played_on_the_loop(table, on_threads, monkeypatch):
    def on_a_thread(*args: Any) -> None:
        raise AssertionError("a database thread played the move")

    monkeypatch.setattr(moves, "apply_action_deferred", on_a_thread)
    ws, snapshot = await join(table, (await db(seated)(table))[0])
    await ws.send_json_to({"type": "action", "action": {"type": "draw"}, "client_id": "c1"})
    moved = await ws.receive_json_from(timeout=5)
    assert (moved["type"], moved["seq"]) == ("event", snapshot["seq"] + 1)
    assert on_threads == []


async def test_with_moves_on_the_loop_switched_off_every_move_is_played_on_a_thread(table, on_threads, settings):
    settings.MOVES_ON_LOOP = False
    await loop_moves.apply_action(table.id, (await db(seated)(table))[0], {"type": "draw"})
    assert on_threads == [{"type": "draw"}]
    assert await db(selectors.table_version)(table.id) == table.version + 1


def _clocked_table(teacher, classroom, students, game: str) -> Table:
    """A two-seat table of ``game`` whose turn's time has run out."""
    lesson = lessons.start_lesson(teacher, classroom, game, None, {"clock_seconds": 10}, [[s.id for s in students[:2]]])
    table = lesson.tables.get()
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    return table


async def test_a_turn_whose_time_ran_out_passes_on_the_loop(teacher, classroom, students, on_threads):
    table = await db(_clocked_table)(teacher, classroom, students, "grabble")
    users = await db(seated)(table)
    await loop_moves.apply_action(table.id, users[0], {"type": "timeout", "seq": 0})
    assert on_threads == []
    table = await db(Table.objects.get)(pk=table.pk)
    assert table.version == 1
    assert table.turn_deadline > timezone.now()  # the next turn has its full time


async def test_a_turn_that_cannot_pass_alerts_the_teacher_from_a_thread(
    teacher, classroom, students, on_threads, monkeypatch
):
    """The rules have no pass here: the thread's path commits the alert, and its broadcasts are sent although the
    move itself is refused."""
    table = await db(_clocked_table)(teacher, classroom, students, "palabras_cortas")
    sent: list[tuple[str, str]] = []
    group_send = transport.group_send

    def recorded(group: str, message: dict[str, Any]) -> None:
        if transport._deferred.get() is None:  # sent, not collected
            sent.append((group, message["type"]))
        group_send(group, message)

    monkeypatch.setattr(transport, "group_send", recorded)
    timeout = {"type": "timeout", "seq": 0}
    with pytest.raises(AppError) as refused:
        await loop_moves.apply_action(table.id, (await db(seated)(table))[0], timeout)
    assert refused.value.code == "cannot_time_out"
    assert on_threads == [timeout]
    table = await db(Table.objects.get)(pk=table.pk)
    assert (table.version, table.timed_out, table.turn_deadline) == (0, True, None)
    assert sent == [
        (transport.table_group(table.id), "table.refresh"),
        (transport.lesson_group(table.lesson_id), "lesson.row"),
    ]


async def test_the_locked_read_on_the_loop_gives_what_the_threads_gives_and_the_lexicon(table):
    lexicon = await db(Lexicon.objects.create)(name="Mini", language="grc", version=3, last_version=3)
    await db(Table.objects.filter(pk=table.pk).update)(lexicon=lexicon)

    @db_async
    def on_thread() -> tuple:
        with transaction.atomic():
            return table_rows.locked_with_seats(table.id)

    pool = await asyncdb.pool()
    assert pool is not None
    async with pool.connection() as conn:
        copy = await table_rows.locked_with_seats_on(conn, table.id)
        await table_rows.rollback_on(conn)
    read, seats, lexicon_read = table_rows.loop_objects(copy)
    thread_read, thread_seats = await on_thread()
    fields = [f.attname for f in Table._meta.concrete_fields]
    assert [getattr(read, f) for f in fields] == [getattr(thread_read, f) for f in fields]
    assert [(s.number, s.student_id, s.student.display_name, s.student.active) for s in seats] == [
        (s.number, s.student_id, s.student.display_name, s.student.active) for s in thread_seats
    ]
    assert lexicon_read is not None
    assert (lexicon_read.pk, lexicon_read.name, lexicon_read.version, lexicon_read.created) == (
        lexicon.pk,
        "Mini",
        3,
        lexicon.created,
    )


# -- the next move decided on this process's copy of the table's row ------------------------------------------------
@pytest.fixture
def statements(monkeypatch) -> list[str]:
    """Every statement the loop's connections send."""
    sent: list[str] = []
    execute = psycopg.AsyncConnection.execute

    async def counted(self, query, *args: Any, **kwargs: Any):
        sent.append(str(query))
        return await execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.AsyncConnection, "execute", counted)
    return sent


async def _row(table_id: int) -> Copy:
    """The table's row as the loop reads it, now (with its whole state made, for a game with a history)."""
    pool = await asyncdb.pool()
    assert pool is not None
    async with pool.connection() as conn:
        read = await table_rows.locked_with_seats_on(conn, table_id)
        await table_rows.rollback_on(conn)
    return read


def _state_of(copy: Copy) -> dict[str, Any]:
    return copy.state if copy.state is not None else orjson.loads(copy.row[table_rows._state_at()])


def _is_row(copy: Copy, read: Copy) -> bool:
    """``copy`` is the row ``read``: its values, and its state (where it holds it made) the row's whole state."""
    at, row = table_rows._state_at(), read.row
    return _state_of(copy) == _state_of(read) and copy.row[:at] + copy.row[at + 1 :] == row[:at] + row[at + 1 :]


async def test_the_next_move_is_decided_on_the_copy_and_saved_in_one_statement(table, statements, on_threads):
    users = await db(seated)(table)
    await asyncdb.pool()  # opened, with its own statements
    statements.clear()
    await loop_moves.apply_action(table.id, users[0], {"type": "say", "word": "λόγος"})
    assert statements[:1] == ["BEGIN"]
    assert statements[-1] == "COMMIT"
    assert _is_row(loop_moves._copies[table.id], await _row(table.id))
    statements.clear()
    deferred = await loop_moves.apply_action(table.id, users[0], {"type": "draw"})
    assert len(statements) == 1
    assert statements[0].startswith("WITH saved AS (UPDATE")
    assert await db(selectors.table_version)(table.id) == table.version + 2  # committed on its own
    assert [m["seq"] for _, m in deferred.messages if m["type"] == "table.event"] == [table.version + 2]
    assert _is_row(loop_moves._copies[table.id], await _row(table.id))  # the copy is the row as saved
    assert on_threads == []
    # The seats are made once per text of them (a move only reads them); the table anew for every move.
    first, second = (
        table_rows.loop_objects(loop_moves._copies[table.id]),
        table_rows.loop_objects(await _row(table.id)),
    )
    assert first[0] is not second[0]
    assert all(a is b for a, b in zip(first[1], second[1], strict=True))


async def test_moves_from_many_sockets_make_no_django_connection_object_each(table, monkeypatch, on_threads):
    # Django keeps ``connections[alias]`` per asyncio context, and every socket's consumer runs in its own: the
    # loop's conversions must not make a connection object per socket (bench/README.md, "a ninth machine").
    users = await db(seated)(table)
    await loop_moves.apply_action(table.id, users[0], {"type": "say", "word": "λόγος"})  # the process's first move
    made: list[str] = []
    create = connections.create_connection
    monkeypatch.setattr(connections, "create_connection", lambda alias: made.append(alias) or create(alias))
    loop = asyncio.get_running_loop()
    for on_copy in (True, False):
        if not on_copy:
            loop_moves.forget(table.id)  # decided on the row read under its lock
        socket = contextvars.Context()  # as a new consumer's task has
        await loop.create_task(loop_moves.apply_action(table.id, users[0], {"type": "draw"}), context=socket)
    assert await db(selectors.table_version)(table.id) == table.version + 3
    assert on_threads == []
    assert made == []


@pytest.mark.parametrize("change", ["move", "pause", "seat", "student", "lexicon"])
async def test_a_copy_behind_the_row_saves_nothing_and_the_row_decides(table, teacher, statements, on_threads, change):
    """Whatever changed since the copy (the row, a seat, a student, the lexicon's version), the move decided on it is
    not saved; the row, read under its lock, decides the move again."""
    users = await db(seated)(table)
    lexicon = await db(Lexicon.objects.create)(name="Mini", language="grc", version=1, last_version=1)
    await db(Table.objects.filter(pk=table.pk).update)(lexicon=lexicon)
    await loop_moves.apply_action(table.id, users[0], {"type": "say", "word": "λόγος"})
    copy = loop_moves._copies[table.id]
    if change == "move":  # on a thread, which keeps no copy; its broadcast is not delivered here
        await db_async(moves.apply_action)(table.id, users[0], {"type": "play", "card": table.state["hands"][0][0]})
    elif change == "pause":
        await db(moderation.pause_table)(teacher, table.id)
    elif change == "seat":
        await db(table.seats.filter(number=2).update)(removed=True)
    elif change == "student":
        await db(Student.objects.filter(user=users[0]).update)(display_name="Ann")
    else:
        await db(Lexicon.objects.filter(pk=lexicon.pk).update)(version=2, last_version=2)
    version = await db(selectors.table_version)(table.id)
    statements.clear()
    # Seat 0 draws: on the copy it is their turn; after a move, it is seat 1's.
    if change == "move":
        with pytest.raises(AppError) as refused:
            await loop_moves.apply_action(table.id, users[0], {"type": "draw"})
        assert refused.value.code == "not_your_turn"
    elif change == "pause":
        with pytest.raises(AppError) as refused:
            await loop_moves.apply_action(table.id, users[0], {"type": "draw"})
        assert refused.value.code == moves.PAUSED
    else:
        deferred = await loop_moves.apply_action(table.id, users[0], {"type": "draw"})
        version += 1
        (event,) = [m for _, m in deferred.messages if m["type"] == "table.event"]
        info = json.loads(event["copies"]["0"])["table"]
        names = [p["name"] for p in info["players"]]
        assert names[0] == ("Ann" if change == "student" else "Ana")
    assert statements[0].startswith("WITH saved AS (UPDATE")
    assert statements[1] == "BEGIN"
    assert await db(selectors.table_version)(table.id) == version
    assert await db(Move.objects.filter(table=table, seq__gt=version).count)() == 0
    assert loop_moves._copies[table.id] != copy
    assert _is_row(loop_moves._copies[table.id], await _row(table.id))
    assert on_threads == []


async def test_a_refusal_on_the_copy_is_decided_by_the_row(table, statements):
    """The copy may be behind: a move it refuses is played on the row, which may accept it."""
    users = await db(seated)(table)
    await loop_moves.apply_action(table.id, users[0], {"type": "play", "card": table.state["hands"][0][0]})
    await db_async(moves.apply_action)(table.id, users[1], {"type": "play", "card": table.state["hands"][1][0]})
    # The copy has seat 1 to play; the row has seat 2.
    statements.clear()
    await loop_moves.apply_action(table.id, users[2], {"type": "draw"})
    assert statements[0] == "BEGIN"
    assert await db(selectors.table_version)(table.id) == table.version + 3


@pytest.mark.parametrize("before", [False, True], ids=["no_copy", "old_copy"])
async def test_a_broadcast_move_brings_every_process_copy_up_to_date(table, before):
    """A move's broadcast carries the row it saved, through the channel layer: another process's copy, or a process
    with none yet, then has the row as saved. A page is never sent it."""
    users = await db(seated)(table)
    old = await _row(table.id)
    deferred = await loop_moves.apply_action(table.id, users[0], {"type": "say", "word": "λόγος"})
    (event,) = [m for _, m in deferred.messages if m["type"] == "table.event"]
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.send(channel, event)
    carried = await asyncio.wait_for(layer.receive(channel), timeout=5)
    loop_moves._copies.clear()  # another process's copies
    if before:
        loop_moves._copies[table.id] = old
    loop_moves.follow(table.id, carried["row"])
    assert _is_row(loop_moves._copies[table.id], await _row(table.id))
    assert all("row" not in json.loads(text) and "hands" not in text for text in carried["copies"].values())


async def test_a_late_broadcast_leaves_the_copy_and_a_change_on_a_thread_drops_it(table):
    users = await db(seated)(table)
    deferred = await loop_moves.apply_action(table.id, users[0], {"type": "draw"})
    (first,) = [m["row"] for _, m in deferred.messages if m["type"] == "table.event"]
    await loop_moves.apply_action(table.id, users[0], {"type": "play", "card": table.state["hands"][0][0]})
    current = await _row(table.id)
    loop_moves.follow(table.id, first)  # late: the copy is past it
    assert _is_row(loop_moves._copies[table.id], current)
    (event,) = [m for _, m in await _sent_on_thread(table.id) if m["type"] == "table.event"]
    loop_moves.follow(table.id, event["row"])  # a thread tells nothing of the row
    assert table.id not in loop_moves._copies


async def _sent_on_thread(table_id: int) -> list[tuple[str, Any]]:
    """The messages of the next move at the table played on a database thread (seat 1 plays a card)."""
    table = await db(Table.objects.get)(pk=table_id)
    users = await db(seated)(table)
    _, deferred = await db_async(moves.apply_action_deferred)(
        table_id, users[1], {"type": "play", "card": table.state["hands"][1][0]}
    )
    return deferred.messages


async def test_a_page_that_connects_opens_the_loops_connections(table, settings):
    await join(table, (await db(seated)(table))[0])
    pool = await asyncio.wait_for(asyncdb._pools[asyncio.get_running_loop()], timeout=10)
    assert pool.get_stats()["pool_size"] == settings.DATABASE_LOOP_CONNECTIONS  # before any move


async def test_a_word_said_on_the_copy_sends_its_own_moves_recording_job(table, monkeypatch):
    """The learning job names the move the guarded save inserted."""
    published: list[int] = []
    monkeypatch.setattr(learning_services, "publish_recording", published.append)
    users = await db(seated)(table)
    await loop_moves.apply_action(table.id, users[0], {"type": "draw"})  # the copy is kept
    deferred = await loop_moves.apply_action(table.id, users[0], {"type": "say", "word": "λόγος"})
    for job in deferred.later:
        job()
    said = await db(Move.objects.get)(table=table, seq=table.version + 2)
    assert published == [said.pk]


async def test_no_more_copies_than_the_setting(table, settings):
    settings.MOVE_TABLE_COPIES = 0
    await loop_moves.apply_action(table.id, (await db(seated)(table))[0], {"type": "draw"})
    assert loop_moves._copies == {}


# -- the state a process holds made: its own move's, or one made from a broadcast move's change -----------------------
@pytest.fixture
def with_history(toy_game, monkeypatch):
    """The toy game keeps its played cards as a history (``Game.history``), as Grabble keeps its plays."""
    monkeypatch.setattr(toy_game, "history", ("played",))
    return toy_game


async def _state(table_id: int) -> dict[str, Any]:
    return await db(lambda: Table.objects.get(pk=table_id).state)()  # its history read on the thread


async def _draw_and_play(table_id: int, users: list, rounds: int) -> list[dict[str, Any]]:
    """``rounds`` times, the seat on turn draws and plays a card; the row change each move's broadcast carries."""
    changes = []
    for _ in range(rounds):
        turn = (await _state(table_id))["turn"]
        for kind in ("draw", "play"):
            action = {"type": kind}
            if kind == "play":
                action["card"] = (await _state(table_id))["hands"][turn][0]
            deferred = await loop_moves.apply_action(table_id, users[turn], action)
            (event,) = [m for _, m in deferred.messages if m["type"] == "table.event"]
            changes.append(event["row"])
    return changes


async def test_a_game_with_a_history_sends_what_a_move_changed_and_another_process_makes_the_state(
    table, with_history, statements, on_threads
):
    users = await db(seated)(table)
    at = table_rows._state_at()
    old = await _row(table.id)
    changes = await _draw_and_play(table.id, users, 4)
    # The state's text is not sent: what the move changed of it is, and of the history only the new entries.
    assert all(change["row"][at] is None for change in changes)
    last = orjson.loads(changes[-1]["state"])
    played = (await _state(table.id))["played"]
    assert last["history"] == {"played": {"length": 4, "entries": {"3": played[3]}}}
    assert "played" not in last["rest"]
    # Another process, holding the row as it was before these moves, follows them and holds the state as saved.
    loop_moves._copies.clear()
    assert old.state is not None  # made from the row's state and its history's entries
    loop_moves._copies[table.id] = old
    for change in changes:
        loop_moves.follow(table.id, change)
    assert _is_row(loop_moves._copies[table.id], await _row(table.id))
    # Its next move is decided on that state and saved in one statement.
    turn = (await _state(table.id))["turn"]
    statements.clear()
    await loop_moves.apply_action(table.id, users[turn], {"type": "draw"})
    assert len(statements) == 1
    assert statements[0].startswith("WITH saved AS (UPDATE")
    assert _is_row(loop_moves._copies[table.id], await _row(table.id))
    assert on_threads == []


async def test_a_change_made_from_a_row_this_process_does_not_hold_drops_its_copy(table, with_history, statements):
    users = await db(seated)(table)
    old = await _row(table.id)
    first, second = await _draw_and_play(table.id, users, 1)
    for copy, change in [
        (None, first),  # no copy
        (Copy(old.row), first),  # the row without its state made
        (old, second),  # a move missed
    ]:
        loop_moves._copies.clear()
        if copy is not None:
            loop_moves._copies[table.id] = copy
        loop_moves.follow(table.id, change)
        assert table.id not in loop_moves._copies
    # The next move is played on the row, read under its lock.
    statements.clear()
    turn = (await _state(table.id))["turn"]
    await loop_moves.apply_action(table.id, users[turn], {"type": "draw"})
    assert statements[0] == "BEGIN"
    assert _is_row(loop_moves._copies[table.id], await _row(table.id))


async def test_the_next_move_on_this_process_is_decided_on_the_state_its_own_move_made(table, monkeypatch):
    """Parsing a long game's state from the row's text grew with the game: after its own move a process has the
    state already made."""
    users = await db(seated)(table)
    await loop_moves.apply_action(table.id, users[0], {"type": "draw"})
    parsed: list[str] = []
    from_db = table_rows._from_db

    def counted(db_wrapper, field, value):
        parsed.append(field.name)
        return from_db(db_wrapper, field, value)

    monkeypatch.setattr(table_rows, "_from_db", counted)
    card = (await _state(table.id))["hands"][0][0]
    parsed.clear()
    await loop_moves.apply_action(table.id, users[0], {"type": "play", "card": card})
    assert "options" in parsed  # the row's other JSON is read as before
    assert "state" not in parsed
    # Nor does the save send the state's text back: the process holds the state.
    copy = loop_moves._copies[table.id]
    assert copy.row[table_rows._state_at()] is None
    assert copy.state == await _state(table.id)
    assert (await _state(table.id))["played"] == [card]


@pytest.fixture
def save_and_copies(statements, monkeypatch) -> list[str]:
    """In order: each statement the loop's connections send (:func:`statements`), each recipients' copies and each
    dashboard row made, each save of a move returned."""
    # psycopg gives the loop a turn inside a pipeline's write when 5 ms have passed since it last did
    # (psycopg.waiting.MAX_BUSY_TIME): on a loaded CI machine the rules took that long, and the save's COMMIT was
    # queued after the copies were made. The order asserted is the code's own, not that clock's or the machine's.
    monkeypatch.setattr(psycopg.waiting, "MAX_BUSY_TIME", float("inf"))
    made = moves.recipients_copies

    def copies(*args: Any, **kwargs: Any) -> dict[str, str]:
        statements.append("copies")
        return made(*args, **kwargs)

    monkeypatch.setattr(moves, "recipients_copies", copies)
    row = selectors.dashboard_row

    def dashboard(*args: Any, **kwargs: Any) -> dict[str, Any]:
        statements.append("dashboard")
        return row(*args, **kwargs)

    monkeypatch.setattr(selectors, "dashboard_row", dashboard)
    for name in ("save_move_on", "save_move_if_unchanged_on"):
        save = getattr(table_rows, name)

        async def returned(*args: Any, save=save, **kwargs: Any):
            saved = await save(*args, **kwargs)
            # Should PostgreSQL have answered before the save first waited (the process descheduled after sending),
            # the save never gave the loop a turn: one turn here, as the wait would have. A caller that awaits the
            # save before making the copies still makes them after this.
            await asyncio.sleep(0)
            statements.append("saved")
            return saved

        monkeypatch.setattr(table_rows, name, returned)
    return statements


@pytest.mark.parametrize("copy", [False, True], ids=["read", "copy"])
async def test_the_broadcast_is_made_while_the_save_is_on_its_way(table, save_and_copies, copy):
    """The save waits on PostgreSQL's write and flush of the log: the copies for the pages and the dashboard's row
    are made meanwhile, after the save's statements were handed over and before their answer is taken, and are sent
    only after it."""
    users = await db(seated)(table)
    await asyncdb.pool()
    if copy:  # the next move is decided on the copy this one leaves
        await loop_moves.apply_action(table.id, users[0], {"type": "say", "word": "λόγος"})
    save_and_copies.clear()
    deferred = await loop_moves.apply_action(table.id, users[0], {"type": "draw"})
    made = ["copies", "dashboard", "saved"]
    expected = ["WITH", *made] if copy else ["BEGIN", "SELECT", "WITH", "COMMIT", *made]
    assert [sent.split(" ", 1)[0] for sent in save_and_copies] == expected
    assert [m["seq"] for _, m in deferred.messages if m["type"] == "table.event"] == [table.version + 1 + copy]
    # The row made before the save returned is the table as the move left it, and the only one sent.
    rows = [m["row"] for _, m in deferred.messages if m["type"] == "lesson.row"]
    assert [row["seq"] for row in rows] == [table.version + 1 + copy]
    assert save_and_copies.count("dashboard") == 1


@pytest.mark.parametrize("copy", [False, True], ids=["read", "copy"])
async def test_copies_that_fail_leave_the_save_to_finish_and_the_connection_clean(table, monkeypatch, copy):
    users = await db(seated)(table)
    start = table.version
    if copy:
        await loop_moves.apply_action(table.id, users[0], {"type": "say", "word": "λόγος"})
        start += 1
    made = moves.recipients_copies

    def broken(*args: Any, **kwargs: Any) -> dict[str, str]:
        raise RuntimeError("no copies")

    monkeypatch.setattr(moves, "recipients_copies", broken)
    with pytest.raises(RuntimeError, match="no copies"):
        await loop_moves.apply_action(table.id, users[0], {"type": "draw"})
    # The save was on its way and was awaited: the move stands, as it would had the broadcast failed after it.
    assert await db(selectors.table_version)(table.id) == start + 1
    pool = await asyncdb.pool()
    assert pool is not None
    assert pool.get_stats()["pool_available"] == pool.get_stats()["pool_size"]
    monkeypatch.setattr(moves, "recipients_copies", made)
    card = (await _state(table.id))["hands"][0][0]
    await asyncio.wait_for(loop_moves.apply_action(table.id, users[0], {"type": "play", "card": card}), timeout=5)
    assert await db(selectors.table_version)(table.id) == start + 2
