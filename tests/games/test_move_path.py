"""The move path stays lean: a bounded number of queries, and the consumer's deferred broadcasts keep the commit
rule (nothing for an action that did not commit; inside a caller's transaction, sent on that commit as usual)."""

import asyncio
import json
from threading import current_thread

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from config import transport
from config.celery import app as celery_app
from config.dbthreads import db_async, pooled
from games.engine import AppError
from games.models import Table
from games.services import moves
from learning import tasks
from learning.models import RecordedMove
from tests.games.conftest import seated

pytestmark = pytest.mark.usefixtures("toy_game")

db = database_sync_to_async

# SAVEPOINT, SQLite's write-lock update, the locked table, its seats with their students, the state's update, the
# move's insert, RELEASE. Raise it only for a reason: every query here is paid on every move of every table.
MOVE_QUERIES = 7


@pytest.mark.django_db
def test_a_move_takes_a_bounded_number_of_queries(table, django_assert_max_num_queries):
    users = seated(table)
    with django_assert_max_num_queries(MOVE_QUERIES):
        moves.apply_action(table.id, users[0], {"type": "draw"})


@pytest.mark.django_db
def test_broadcasting_a_move_reads_nothing_more(table, django_capture_on_commit_callbacks, django_assert_num_queries):
    users = seated(table)
    with django_capture_on_commit_callbacks() as callbacks:
        moves.apply_action(table.id, users[0], {"type": "draw"})
    broadcast, _recording = callbacks  # the recording job is published after the broadcasts
    with django_assert_num_queries(0):
        broadcast()


@pytest.mark.django_db
def test_a_teachers_move_takes_a_bounded_number_of_queries(table, teacher, django_assert_max_num_queries):
    with django_assert_max_num_queries(MOVE_QUERIES + 1):  # + the check that the class is theirs
        moves.apply_action(table.id, teacher, {"type": "skip"})


async def listening(table) -> dict[str, str]:
    """A channel in the table's group and one in the lesson's."""
    layer = get_channel_layer()
    channels = {"table": await layer.new_channel(), "lesson": await layer.new_channel()}
    await layer.group_add(transport.table_group(table.id), channels["table"])
    await layer.group_add(transport.lesson_group(table.lesson_id), channels["lesson"])
    return channels


async def nothing_waiting(channel: str) -> bool:
    try:
        await asyncio.wait_for(get_channel_layer().receive(channel), timeout=0.05)
    except TimeoutError:
        return True
    return False


@pytest.mark.django_db(transaction=True)
async def test_a_deferred_move_is_committed_and_its_broadcasts_handed_back_unsent(table):
    channels = await listening(table)
    users = await db(seated)(table)
    move, deferred = await db(moves.apply_action_deferred)(table.id, users[0], {"type": "draw"})
    assert (await db(Table.objects.get)(pk=table.pk)).version == move.seq == 1
    for channel in channels.values():
        assert await nothing_waiting(channel)
    groups = [group for group, _ in deferred.messages]
    assert groups == [transport.table_group(table.id), transport.lesson_group(table.lesson_id)]
    assert not await db(RecordedMove.objects.filter(move_id=move.pk).exists)()  # recorded later, not yet

    await moves.send_deferred(deferred)
    message = await get_channel_layer().receive(channels["table"])
    assert (message["type"], message["seq"]) == ("table.event", 1)
    assert list(message["copies"]) == ["0", "1", "2", "spectators"]
    for seat in [0, 1, 2, None]:
        copy = json.loads(message["copies"][transport.recipient(seat)])  # the text that seat's pages are sent
        assert (copy["type"], copy["seq"], copy["table"]["id"]) == ("event", 1, table.id)
        assert copy["view"]["seat"] == seat
        assert ("card" in copy["events"][0]) == (seat == 0)  # each copy censored for its recipient
    row = await get_channel_layer().receive(channels["lesson"])
    assert (row["type"], row["row"]["seq"]) == ("lesson.row", 1)
    assert await db(RecordedMove.objects.filter(move_id=move.pk).exists)()


@pytest.mark.django_db(transaction=True)
async def test_with_a_broker_the_recording_job_is_published_outside_the_database_thread(table, monkeypatch):
    """Every table of a server process shares the database thread; publishing needs no database."""
    monkeypatch.setattr(celery_app.conf, "task_always_eager", False)
    published = []
    monkeypatch.setattr(tasks.record_move, "delay", lambda move_id: published.append((move_id, current_thread())))
    users = await db(seated)(table)
    move, deferred = await db(moves.apply_action_deferred)(table.id, users[0], {"type": "draw"})
    await moves.send_deferred(deferred)
    database_thread = await db(current_thread)()
    assert [move_id for move_id, _ in published] == [move.pk]
    assert published[0][1] is not database_thread


@pytest.mark.django_db(transaction=True)
async def test_a_refused_deferred_move_hands_back_nothing_and_later_moves_broadcast_as_usual(table):
    channels = await listening(table)
    users = await db(seated)(table)
    with pytest.raises(AppError):
        await db(moves.apply_action_deferred)(table.id, users[1], {"type": "draw"})
    await db(moves.apply_action)(table.id, users[0], {"type": "draw"})  # the plain path sends on commit
    message = await get_channel_layer().receive(channels["table"])
    assert message["seq"] == 1


@pytest.mark.django_db(transaction=True)
async def test_inside_a_callers_transaction_nothing_is_deferred_or_sent_before_its_commit(table):
    channels = await listening(table)
    users = await db(seated)(table)

    def move_then_fail() -> None:
        with transaction.atomic():
            _, deferred = moves.apply_action_deferred(table.id, users[0], {"type": "draw"})
            assert deferred.messages == []
            assert deferred.later == []
            raise RuntimeError("the caller's transaction fails after the move")

    with pytest.raises(RuntimeError):
        await db(move_then_fail)()
    assert (await db(Table.objects.get)(pk=table.pk)).version == 0
    for channel in channels.values():
        assert await nothing_waiting(channel)


@pytest.mark.django_db(transaction=True)
async def test_table_database_calls_run_on_their_own_threads_with_a_pool_and_on_channels_thread_without():
    """With PostgreSQL's pool a table's calls do not queue behind every other table on Channels' one thread."""

    def thread_and_connection() -> tuple[str, bool]:
        from django.db import connection

        connection.ensure_connection()
        return current_thread().name, connection.connection is not None

    name, connected = await db_async(thread_and_connection)()
    assert connected
    if pooled():
        assert name.startswith("db_")
    else:
        assert name == (await db(thread_and_connection)())[0]
