"""The real Redis every machine of this project runs (127.0.0.1:6379, or REDIS_URL): the channel layer
the servers share, and Celery's broker and result backend with a real worker. Not skipped when Redis
is missing: a machine without it is misconfigured, and CI must say so."""

import asyncio
import logging

import pytest

from config.celery import ping
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
