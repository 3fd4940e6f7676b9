"""The real Redis every machine of this project runs (127.0.0.1:6379, or REDIS_URL): the channel layer
the servers share, and Celery's broker and result backend with a real worker. Not skipped when Redis
is missing: a machine without it is misconfigured, and CI must say so."""

import asyncio
import logging
from collections.abc import Callable

import pytest
from channels.layers import InMemoryChannelLayer
from redis.asyncio.connection import AbstractConnection

from config.celery import ping
from config.channel_layer import group_send_all
from config.logging import ClosingChannelCleanup
from tests.conftest import REDIS_URL, channel_layer_on

pytestmark = pytest.mark.redis


@pytest.fixture
def redis_layer():
    """The channel layer exactly as the settings configure it on Redis, with a prefix of its own."""
    return channel_layer_on(REDIS_URL)


async def test_channels_redis_delivers_to_a_channel(redis_layer):
    channel = await redis_layer.new_channel()
    await redis_layer.send(channel, {"type": "roster.changed", "students": []})
    assert await redis_layer.receive(channel) == {"type": "roster.changed", "students": []}
    await redis_layer.flush()


async def test_channels_redis_group_send_reaches_every_member(redis_layer):
    first, second = await redis_layer.new_channel(), await redis_layer.new_channel()
    await redis_layer.group_add("classroom-1", first)
    await redis_layer.group_add("classroom-1", second)
    await redis_layer.group_send("classroom-1", {"type": "roster.changed", "n": 1})
    assert (await redis_layer.receive(first))["n"] == 1
    assert (await redis_layer.receive(second))["n"] == 1
    await redis_layer.flush()


async def test_a_moves_broadcasts_reach_redis_in_one_write_and_arrive_in_order(redis_layer, monkeypatch):
    """A move's table message and dashboard row (and anything else sent with them) are one pipelined write to Redis,
    not a publish and a round trip each; every member hears them, in the order they were given."""
    table, dashboard = await redis_layer.new_channel(), await redis_layer.new_channel()
    await redis_layer.group_add("table-1", table)
    await redis_layer.group_add("lesson-1", dashboard)
    writes = []
    send_packed_command = AbstractConnection.send_packed_command

    async def counted(connection, command, *args, **kwargs):
        writes.append(command if isinstance(command, list) else [command])
        return await send_packed_command(connection, command, *args, **kwargs)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    sent = [
        ("table-1", {"type": "table.event", "seq": 1}),
        ("lesson-1", {"type": "lesson.row", "seq": 1}),
        ("table-1", {"type": "table.event", "seq": 2}),
    ]
    assert await group_send_all(redis_layer, sent) == [None, None, None]
    # The writes that publish (a new pooled connection first writes its own handshake).
    publishes = [b"".join(write) for write in writes if b"PUBLISH" in b"".join(write)]
    assert len(publishes) == 1
    assert publishes[0].count(b"PUBLISH") == 3
    assert [(await redis_layer.receive(table))["seq"] for _ in range(2)] == [1, 2]
    assert await redis_layer.receive(dashboard) == {"type": "lesson.row", "seq": 1}
    await redis_layer.flush()


def held_publishes(monkeypatch) -> tuple[list[int], asyncio.Event]:
    """Each write to Redis that publishes, as its number of publishes; the first such write waits for the event."""
    publishes: list[int] = []
    gate = asyncio.Event()
    send_packed_command = AbstractConnection.send_packed_command

    async def held(connection, command, *args, **kwargs):
        written = b"".join(command if isinstance(command, list) else [command])
        if b"PUBLISH" in written:
            publishes.append(written.count(b"PUBLISH"))
            if len(publishes) == 1:
                await gate.wait()
        return await send_packed_command(connection, command, *args, **kwargs)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", held)
    return publishes, gate


async def heard(layer, channel: str) -> dict:
    """The next message on ``channel``; a test fails rather than waits for one that never comes."""
    return await asyncio.wait_for(layer.receive(channel), 5)


async def until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.001)


async def test_broadcasts_asked_for_during_a_trip_to_redis_go_together_in_the_next_in_order(redis_layer, monkeypatch):
    """A process published one message per trip to Redis and back, each waiting for the last one's reply: under load
    its moves queued there. The broadcasts asked for while a trip is under way now all go in the next one."""
    table = await redis_layer.new_channel()
    await redis_layer.group_add("table-1", table)
    publishes, gate = held_publishes(monkeypatch)
    first = asyncio.create_task(redis_layer.group_send("table-1", {"type": "table.event", "seq": 0}))
    await until(lambda: publishes == [1])  # the first trip is under way, held before it reaches Redis
    waiting = [
        asyncio.create_task(group_send_all(redis_layer, [("table-1", {"type": "table.event", "seq": seq})]))
        for seq in range(1, 6)
    ]
    await asyncio.sleep(0.05)
    assert publishes == [1]  # nothing else goes while the first trip is under way
    gate.set()
    assert await asyncio.gather(first, *waiting) == [None] + [[None]] * 5
    assert publishes == [1, 5]
    assert [(await heard(redis_layer, table))["seq"] for _ in range(6)] == [0, 1, 2, 3, 4, 5]
    await redis_layer.flush()


async def test_a_broadcast_whose_sender_gave_up_waiting_is_still_sent_and_the_rest_go_on(redis_layer, monkeypatch):
    """A consumer cancelled while its broadcast waits for the next trip (its socket closed): the broadcast was
    committed and still goes, in its place, and the others are not held back."""
    table = await redis_layer.new_channel()
    await redis_layer.group_add("table-1", table)
    publishes, gate = held_publishes(monkeypatch)
    first = asyncio.create_task(redis_layer.group_send("table-1", {"type": "table.event", "seq": 0}))
    await until(lambda: publishes == [1])
    given_up = asyncio.create_task(redis_layer.group_send("table-1", {"type": "table.event", "seq": 1}))
    last = asyncio.create_task(redis_layer.group_send("table-1", {"type": "table.event", "seq": 2}))
    await asyncio.sleep(0.01)
    given_up.cancel()
    gate.set()
    await asyncio.gather(first, last)
    assert given_up.cancelled()
    assert [(await heard(redis_layer, table))["seq"] for _ in range(3)] == [0, 1, 2]
    await redis_layer.flush()


async def test_a_broadcast_heard_is_not_made_into_text_for_a_debug_log(redis_layer, caplog):
    """In redis-py 8's default protocol (RESP3) every pub/sub message is a push notification, which redis-py formats
    whole into a "Push response" debug line before the logger decides to drop it: a move's message, heard by every
    process with a seat at the table, was turned into text each time. The layer speaks RESP2, where it is not."""
    caplog.set_level(logging.DEBUG, logger="push_response")  # so that a line made would be seen
    channel = await redis_layer.new_channel()
    await redis_layer.group_add("table-1", channel)
    texts = ["x" * 10_000, "y" * 4_000]
    await redis_layer.group_send("table-1", {"type": "table.event", "texts": texts})
    assert (await redis_layer.receive(channel))["texts"] == texts
    await redis_layer.flush()
    assert [record.getMessage()[:40] for record in caplog.records if record.name == "push_response"] == []


async def test_broadcasts_sent_together_on_the_in_memory_layer_each_reach_their_group():
    """``make run``'s layer has no pipeline: one group_send each, with the same outcome."""
    layer = InMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("table-1", channel)
    assert await group_send_all(layer, [("table-1", {"type": "a"}), ("lesson-1", {"type": "b"})]) == [None, None]
    assert await layer.receive(channel) == {"type": "a"}


def test_celery_task_round_trip_through_redis(celery_worker_on_redis):
    with celery_worker_on_redis.connection_for_write() as connection:
        assert connection.transport.driver_type == "redis"
    assert type(celery_worker_on_redis.backend).__name__ == "RedisBackend"
    result = ping.delay()
    assert result.get(timeout=20) == "pong"
    assert result.successful()


async def test_a_channel_clean_up_cancelled_again_logs_no_traceback(redis_layer, caplog, settings):
    """A consumer cancelled a second time while its channel unsubscribes (the server stopping): channels-redis logs
    that CancelledError with a traceback, and the console handler's filter drops it (other records pass)."""
    channel = await redis_layer.new_channel()
    shard = redis_layer._get_layer()._get_shard(channel)
    await shard._subscribing.acquire()  # another subscribe holds the shard's socket, so the clean-up waits for it
    waiting = asyncio.create_task(redis_layer.receive(channel))
    await asyncio.sleep(0.05)
    waiting.cancel()  # Channels ending the consumer
    await asyncio.sleep(0.05)
    waiting.cancel()  # and the server stopping meanwhile
    with pytest.raises(asyncio.CancelledError):
        await waiting
    shard._subscribing.release()
    logged = [r for r in caplog.records if r.name == "channels_redis.pubsub"]
    assert logged
    assert logged[0].exc_info
    assert isinstance(logged[0].exc_info[1], asyncio.CancelledError)
    assert not ClosingChannelCleanup().filter(logged[0])
    other = logging.LogRecord("channels_redis.pubsub", logging.ERROR, "", 0, "receive failed", (), None)
    other.exc_info = (ValueError, ValueError("bad"), None)
    assert ClosingChannelCleanup().filter(other)
    assert "closing_channel_cleanup" in settings.LOGGING["handlers"]["console"]["filters"]
    await redis_layer.flush()
