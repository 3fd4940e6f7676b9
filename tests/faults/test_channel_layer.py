"""The channel layer across Redis restarts, on a Redis of the test's own (``config.channel_layer``).

A websocket connecting just after Redis comes back subscribes its channel and groups on the process's pub/sub socket,
which is being reconnected at that very moment. Upstream channels-redis let the subscribe and the read loop reconnect
it together: one took the other's handshake replies, and the subscribe hung for the 30 s socket timeout or failed with
a RuntimeError. Here every such subscribe is answered promptly, and every member, old and new, hears the group."""

import asyncio

import pytest
import redis
from redis.exceptions import ConnectionError as RedisConnectionError

from config.channel_layer import READY_WAIT, group_send_all
from tests.conftest import channel_layer_on

pytestmark = [pytest.mark.faults, pytest.mark.timeout(180)]

# A subscribe must be answered well inside Daphne's 5 s handshake limit, or the page's connect is dropped unanswered.
ANSWERED_WITHIN = READY_WAIT + 1.0


async def connect_like_a_socket(layer, group: str) -> str:
    """What a consumer does as it connects: its own channel, then its groups."""
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    await layer.group_add(f"{group}-user", channel)
    return channel


async def test_sockets_connecting_as_redis_comes_back_are_admitted_and_hear_their_group(redis_server):
    layer = channel_layer_on(redis_server.url)
    members = [await connect_like_a_socket(layer, "table")]
    for restart in range(20):
        redis_server.stop()
        # Down for 0.2 to 1.2 s, so the restart meets the reconnecting read loop at varying points (upstream's waited
        # 1 s after each failed read).
        await asyncio.sleep(0.2 + restart * 0.37 % 1.0)
        redis_server.start()
        arriving = [connect_like_a_socket(layer, "table") for _ in range(4)]
        members += await asyncio.wait_for(asyncio.gather(*arriving), ANSWERED_WITHIN)

    await layer.group_send("table", {"type": "table.event", "seq": 1})
    for channel in members:
        assert await asyncio.wait_for(layer.receive(channel), ANSWERED_WITHIN) == {"type": "table.event", "seq": 1}
    await layer.flush()


async def test_a_socket_connecting_while_redis_is_down_is_refused_promptly(redis_server):
    layer = channel_layer_on(redis_server.url)
    await connect_like_a_socket(layer, "table")
    redis_server.stop()
    await asyncio.sleep(0.3)  # the receive task has found the socket dead (a subscribe sent before then is kept, and
    # re-sent by the reconnection)
    for _ in range(2):
        with pytest.raises(RedisConnectionError):  # the consumer closes with 4013, try again
            await asyncio.wait_for(connect_like_a_socket(layer, "table"), ANSWERED_WITHIN)
    redis_server.start()
    late = await asyncio.wait_for(connect_like_a_socket(layer, "table"), ANSWERED_WITHIN)
    await layer.group_send("table", {"type": "table.event", "seq": 2})
    assert await asyncio.wait_for(layer.receive(late), ANSWERED_WITHIN) == {"type": "table.event", "seq": 2}
    await layer.flush()


async def test_a_socket_leaving_while_redis_is_down_goes_at_once_and_is_not_subscribed_again(redis_server):
    layer = channel_layer_on(redis_server.url)
    staying = await connect_like_a_socket(layer, "table")
    leaving = await connect_like_a_socket(layer, "table-2")
    redis_server.stop()
    await asyncio.sleep(0.3)  # the receive task has found the socket dead
    for group in ("table-2", "table-2-user"):
        await asyncio.wait_for(layer.group_discard(group, leaving), 0.5)  # no wait for Redis, no error

    redis_server.start()
    await asyncio.wait_for(connect_like_a_socket(layer, "table-3"), ANSWERED_WITHIN)  # the socket is back
    subscribed = {name.decode() for name in redis.Redis.from_url(redis_server.url).pubsub_channels()}
    group_channel = layer._get_layer()._get_group_channel_name
    assert group_channel("table") in subscribed
    assert staying in subscribed
    assert group_channel("table-2") not in subscribed
    assert group_channel("table-2-user") not in subscribed
    await layer.flush()


async def test_an_unexpected_error_in_the_receive_task_does_not_stop_the_process_hearing(redis_server, caplog):
    """Whatever goes wrong while reading, the receive task logs it and reconnects: dead, it would leave the process
    deaf to every broadcast while its sockets still look connected."""
    layer = channel_layer_on(redis_server.url)
    channel = await connect_like_a_socket(layer, "table")
    shard = layer._get_layer()._get_shard(layer._get_layer()._get_group_channel_name("table"))
    deliver = shard._receive_message
    failures = []

    def fail_once(message):
        if message is not None and not failures:
            failures.append(message)
            raise RuntimeError("a reply nobody expected")
        deliver(message)

    shard._receive_message = fail_once
    await layer.group_send("table", {"type": "table.event", "seq": 1})  # read, then lost with the error
    await asyncio.sleep(1)  # the receive task backs off, reconnects and subscribes again
    await layer.group_send("table", {"type": "table.event", "seq": 2})
    assert await asyncio.wait_for(layer.receive(channel), ANSWERED_WITHIN) == {"type": "table.event", "seq": 2}
    assert failures
    assert any("unexpected error on the Redis pub/sub socket" in r.getMessage() for r in caplog.records)
    await layer.flush()


async def test_broadcasts_sent_together_while_redis_is_down_each_report_their_error_and_then_go_again(redis_server):
    """A move's broadcasts go to Redis in one pipelined write: while Redis is down each one reports its error (the
    caller logs each group, the committed move stands), and after a restart the next ones are sent on a new
    connection (the pipeline retries as a single publish does)."""
    layer = channel_layer_on(redis_server.url)
    channel = await connect_like_a_socket(layer, "table")
    sent = [("table", {"type": "table.event", "seq": 1}), ("lesson", {"type": "lesson.row"})]
    assert await group_send_all(layer, sent) == [None, None]
    assert (await asyncio.wait_for(layer.receive(channel), ANSWERED_WITHIN))["seq"] == 1

    redis_server.stop()
    errors = await asyncio.wait_for(group_send_all(layer, sent), 10)
    assert [type(error) for error in errors] == [RedisConnectionError, RedisConnectionError]

    redis_server.start()
    await asyncio.sleep(0.5)  # the receive task has subscribed again
    sent[0][1]["seq"] = 2
    assert await asyncio.wait_for(group_send_all(layer, sent), 10) == [None, None]
    assert (await asyncio.wait_for(layer.receive(channel), ANSWERED_WITHIN))["seq"] == 2
    await layer.flush()
