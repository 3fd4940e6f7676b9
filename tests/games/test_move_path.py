"""The move path stays lean: a bounded number of queries, and the consumer's deferred broadcasts keep the commit
rule (nothing for an action that did not commit; inside a caller's transaction, sent on that commit as usual)."""

import asyncio
import json
from threading import current_thread

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection, transaction

from config import transport
from config.celery import app as celery_app
from config.dbthreads import db_async, pooled
from games.engine import AppError
from games.models import Table
from games.services import moves
from learning import tasks
from learning.encounters import record_lesson
from learning.models import RecordedMove
from tests.games.conftest import seated

pytestmark = pytest.mark.usefixtures("toy_game")

db = database_sync_to_async

# PostgreSQL: SAVEPOINT, the locked table with its seats and their students, the state's update with the move's
# insert, RELEASE (games.services.table_rows). Elsewhere the ORM's statements: SQLite's write-lock update, the locked
# table, its seats, the state's update, the move's insert. Raise them only for a reason: every query here is paid on
# every move of every table.
MOVE_QUERIES = 4 if connection.vendor == "postgresql" else 7
SAY = {"type": "say", "word": "λόγος"}  # a move that meets a word (a draw meets none)


@pytest.mark.django_db
def test_a_move_takes_a_bounded_number_of_queries(table, django_assert_max_num_queries):
    users = seated(table)
    with django_assert_max_num_queries(MOVE_QUERIES):
        moves.apply_action(table.id, users[0], {"type": "draw"})
    with django_assert_max_num_queries(MOVE_QUERIES):
        moves.apply_action(table.id, users[0], SAY)


@pytest.mark.django_db
def test_a_move_that_meets_no_word_sends_learning_no_job(table, django_capture_on_commit_callbacks):
    """A draw has nothing to record: no job is published, and the lesson's catch-up passes it over."""
    users = seated(table)
    with django_capture_on_commit_callbacks() as callbacks:
        drawn = moves.apply_action(table.id, users[0], {"type": "draw"})
    assert len(callbacks) == 1  # the broadcast only
    with django_capture_on_commit_callbacks() as callbacks:
        said = moves.apply_action(table.id, users[0], SAY)
    assert len(callbacks) == 2  # the broadcast, then the recording job
    assert (drawn.recordable, said.recordable) == (False, True)
    assert record_lesson(table.lesson_id) == 3  # the word said: played by one seat, seen by the other two
    assert set(RecordedMove.objects.values_list("move_id", flat=True)) == {said.pk}


@pytest.mark.django_db
def test_broadcasting_a_move_reads_nothing_more(table, django_capture_on_commit_callbacks, django_assert_num_queries):
    users = seated(table)
    with django_capture_on_commit_callbacks() as callbacks:
        moves.apply_action(table.id, users[0], SAY)
    broadcast, _recording = callbacks  # the recording job is published after the broadcasts
    with django_assert_num_queries(0):
        broadcast()


@pytest.mark.django_db
def test_a_teachers_move_takes_a_bounded_number_of_queries(table, teacher, django_assert_max_num_queries):
    with django_assert_max_num_queries(MOVE_QUERIES + 1):  # + the check that the class is theirs
        moves.apply_action(table.id, teacher, {"type": "skip"})


class Inbox:
    """One channel of the layer and what reaches it, gathered by a single receive that is never cancelled until the
    end (Redis pub/sub forgets a channel whose receive is cancelled, and with it any message sent meanwhile)."""

    def __init__(self, channel: str) -> None:
        self.messages: asyncio.Queue = asyncio.Queue()
        self.channel = channel
        self._task = asyncio.ensure_future(self._gather())

    async def _gather(self) -> None:
        layer = get_channel_layer()
        while True:
            self.messages.put_nowait(await layer.receive(self.channel))

    async def next(self) -> dict:
        return await asyncio.wait_for(self.messages.get(), timeout=10)

    async def empty(self) -> bool:
        await asyncio.sleep(0.1)
        return self.messages.empty()


async def listening(table) -> dict[str, Inbox]:
    """A channel in the table's group and one in the lesson's."""
    layer = get_channel_layer()
    inboxes = {}
    for name, group in (
        ("table", transport.table_group(table.id)),
        ("lesson", transport.lesson_group(table.lesson_id)),
    ):
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        inboxes[name] = Inbox(channel)
    return inboxes


@pytest.mark.django_db(transaction=True)
async def test_a_deferred_move_is_committed_and_its_broadcasts_handed_back_unsent(table):
    channels = await listening(table)
    users = await db(seated)(table)
    move, deferred = await db(moves.apply_action_deferred)(table.id, users[0], SAY)
    assert (await db(Table.objects.get)(pk=table.pk)).version == move.seq == 1
    for inbox in channels.values():
        assert await inbox.empty()
    groups = [group for group, _ in deferred.messages]
    assert groups == [transport.table_group(table.id), transport.lesson_group(table.lesson_id)]
    assert not await db(RecordedMove.objects.filter(move_id=move.pk).exists)()  # recorded later, not yet

    await moves.send_deferred(deferred)
    message = await channels["table"].next()
    assert (message["type"], message["seq"]) == ("table.event", 1)
    assert list(message["copies"]) == ["0", "1", "2", "spectators"]
    for seat in [0, 1, 2, None]:
        copy = json.loads(message["copies"][transport.recipient(seat)])  # the text that seat's pages are sent
        assert (copy["type"], copy["seq"], copy["table"]["id"]) == ("event", 1, table.id)
        assert copy["view"]["seat"] == seat
    row = await channels["lesson"].next()
    assert (row["type"], row["row"]["seq"]) == ("lesson.row", 1)
    assert await db(RecordedMove.objects.filter(move_id=move.pk).exists)()

    # A draw: each copy censored for its recipient (only the drawer sees the card).
    _, deferred = await db(moves.apply_action_deferred)(table.id, users[0], {"type": "draw"})
    await moves.send_deferred(deferred)
    message = await channels["table"].next()
    for seat in [0, 1, 2, None]:
        copy = json.loads(message["copies"][transport.recipient(seat)])
        assert ("card" in copy["events"][0]) == (seat == 0)


@pytest.mark.django_db(transaction=True)
async def test_with_a_broker_the_recording_job_is_published_outside_the_database_thread(table, monkeypatch):
    """Every table of a server process shares the database thread; publishing needs no database."""
    monkeypatch.setattr(celery_app.conf, "task_always_eager", False)
    published = []
    monkeypatch.setattr(tasks.record_move, "delay", lambda move_id: published.append((move_id, current_thread())))
    users = await db(seated)(table)
    move, deferred = await db(moves.apply_action_deferred)(table.id, users[0], SAY)
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
    message = await channels["table"].next()
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
    for inbox in channels.values():
        assert await inbox.empty()


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
