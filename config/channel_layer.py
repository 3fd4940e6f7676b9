"""The channel layer: channels-redis's Redis pub/sub layer, with two changes: its pub/sub socket has a single owner,
and the publishes asked for together go to Redis together.

Upstream, any coroutine may reconnect a shard's pub/sub socket: the task that reads it, and every subscribe that finds
it dead. redis-py's handshake on a new socket (HELLO, CLIENT SETINFO) reads its own replies, and the read loop, reading
the same socket at the same time, could take them first. After a Redis restart a websocket's subscribe then either
waited out the 30 s socket timeout (and Daphne dropped the handshake after 5 s) or failed with "readuntil() called
while another coroutine is already waiting" (an HTTP 500).

Here a shard's receive task alone connects, reads and reconnects the pub/sub socket. Subscribe and unsubscribe only
send on it (redis-py reads their confirmations in the receive task, as upstream). While the socket is down a subscribe
waits for the receive task to bring it back, for at most ``READY_WAIT`` seconds, and then raises ``ConnectionError``:
the consumer refuses the websocket with 4013 (try again). An unsubscribe then only forgets the channel, so that the
reconnection does not subscribe it again.

Publishing is on pooled connections with retries, as upstream, but not one publish per trip to Redis: those asked
for while a trip is under way go together in the next one (:meth:`Shard.publish_all`).
"""

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close, create_pool, decode_hosts
from redis import asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

READY_WAIT = 2.0  # seconds a subscribe waits for the pub/sub socket to come back; under Daphne's 5 s handshake limit
PIPELINE_MAX = 500  # publishes in one trip to Redis at most (a move's are two; a burst waits for the next trip)
RECONNECT_FIRST, RECONNECT_MAX = 0.05, 0.5  # the receive task's backoff between attempts while Redis is down
LAYER_DOWN = (OSError, TimeoutError, RedisError)  # what the layer raises while Redis is unreachable

# True in a shard's receive task only: the one task that may connect its pub/sub socket.
_receiver: ContextVar[bool] = ContextVar("pubsub_receiver", default=False)


class _OwnedSocket:
    """Mixed into the pub/sub socket's connection class: only the receive task connects it, and while it is doing so
    (the handshake reads its replies) nobody else sends on it."""

    _handshaking = False

    def is_up(self) -> bool:
        return bool(self.is_connected) and not self._handshaking  # type: ignore[attr-defined]

    async def connect_check_health(self, *args: Any, **kwargs: Any) -> None:
        if not _receiver.get():
            if self.is_up():
                return
            raise RedisConnectionError("the pub/sub connection is down; its receive task is reconnecting it")
        if self.is_connected:  # type: ignore[attr-defined]
            return
        self._handshaking = True
        try:
            await super().connect_check_health(*args, **kwargs)  # type: ignore[misc]
        finally:
            self._handshaking = False


def _owned_socket_pool(host: dict[str, Any]) -> aioredis.ConnectionPool:
    """A pool for the one pub/sub socket: no retries (a retry reconnects, which only the receive task may do)."""
    host = {key: value for key, value in host.items() if key not in ("retry", "retry_on_error")}
    pool = create_pool({**host, "retry": Retry(NoBackoff(), 0, supported_errors=())})
    base = pool.connection_class
    pool.connection_class = type(f"Owned{base.__name__}", (_OwnedSocket, base), {})
    return pool


class Shard(RedisSingleShardConnection):
    _redis: aioredis.Redis | None
    _pubsub: Any  # redis.asyncio.client.PubSub, or None before the first use

    def __init__(self, host: dict[str, Any], channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self._ready = asyncio.Event()  # the pub/sub socket is up (set and cleared by the receive task only)
        self._subscribing = asyncio.Lock()
        self._lost = False  # Redis found unreachable (logged once per outage)
        # Publishes waiting for the next trip to Redis, and the task that sends them (publish_all).
        self._outbox: deque[tuple[list[tuple[str, bytes]], asyncio.Future[list[Any]]]] = deque()
        self._publisher: asyncio.Task[None] | None = None

    def _ensure_redis(self) -> None:
        if self._redis is None:
            self._redis = aioredis.Redis(connection_pool=create_pool(self.host))
            self._pubsub = aioredis.Redis(connection_pool=_owned_socket_pool(self.host)).pubsub()

    def _socket_up(self) -> bool:
        connection = self._pubsub.connection if self._pubsub is not None else None
        return connection is not None and connection.is_up()

    async def subscribe(self, channel: str) -> None:
        async with self._subscribing:
            if channel not in self._subscribed_to:
                await self._on_socket(lambda: self._pubsub.subscribe(channel))
                self._subscribed_to.add(channel)

    async def unsubscribe(self, channel: str) -> None:
        """A socket leaving. While the pub/sub socket is down this neither waits nor fails: Redis dropped every
        subscription with the socket, and the reconnection must not subscribe this one again."""
        async with self._subscribing:
            if channel not in self._subscribed_to:
                return
            self._subscribed_to.remove(channel)
            if self._socket_up():
                try:
                    await self._pubsub.unsubscribe(channel)
                    return
                except RedisConnectionError:
                    pass  # it went down meanwhile
            for key in self._pubsub._normalize_keys({channel: None}):
                self._pubsub.channels.pop(key, None)

    async def _on_socket(self, send: Callable[[], Awaitable[Any]]) -> None:
        """Run ``send`` (it only writes to the socket) once the socket is up, waiting at most ``READY_WAIT`` s."""
        self._ensure_redis()
        self._ensure_receiver()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + READY_WAIT
        while True:
            try:
                async with asyncio.timeout(max(0.0, deadline - loop.time())):
                    await self._ready.wait()
            except TimeoutError:
                raise RedisConnectionError(f"Redis pub/sub has been unreachable for {READY_WAIT:g} s") from None
            try:
                await send()
                return
            except RedisConnectionError:
                # Down since the receive task last looked: it finds out on its next read, within 0.1 s.
                if loop.time() >= deadline:
                    raise
                await asyncio.sleep(RECONNECT_FIRST)

    async def _do_receiving(self) -> None:
        _receiver.set(True)
        backoff = RECONNECT_FIRST
        while True:
            try:
                if self._socket_up() or await self._reconnect():
                    backoff = RECONNECT_FIRST
                    await self._read()
                    continue
            except LAYER_DOWN:
                self._ready.clear()
            except Exception:
                # Never let this task die (the process would stop hearing every broadcast): start afresh.
                logger.exception("unexpected error on the Redis pub/sub socket; reconnecting")
                self._ready.clear()
                backoff = RECONNECT_MAX
            if self._pubsub.connection is not None:
                await self._pubsub.connection.disconnect(nowait=True)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, RECONNECT_MAX)

    async def _reconnect(self) -> bool:
        """Connect the socket (redis-py's on_connect subscribes again to everything it had); ``False`` if Redis is
        unreachable (logged once per outage)."""
        self._ready.clear()
        try:
            await self._pubsub.connect()
        except LAYER_DOWN as error:
            if not self._lost:
                logger.warning("Redis pub/sub unreachable, reconnecting: %s", error)
                self._lost = True
            return False
        if self._lost:
            logger.info("Redis pub/sub reconnected")
            self._lost = False
        self._ready.set()
        return True

    async def _read(self) -> None:
        if not self._pubsub.subscribed:
            await asyncio.sleep(0.1)  # nothing to read yet (upstream polls the same way)
            return
        self._receive_message(await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1))

    async def publish(self, channel: str, message: bytes) -> None:
        """Upstream's single publish (``send``, ``group_send``), sent the way :meth:`publish_all` sends."""
        [outcome] = await self.publish_all([(channel, message)])
        if isinstance(outcome, BaseException):
            raise outcome

    async def publish_all(self, messages: list[tuple[str, bytes]]) -> list[Any]:
        """Publish each ``(channel, message)``, in order; returns each publish's outcome, an exception where it
        failed; raises if Redis could not be reached at all.

        Upstream holds the shard's lock for each publish's round trip, so a process published one message per trip
        to Redis and back, and a trip lasts until the event loop reads its reply: at 200 moves a second a process's
        publishes queued behind each other, up to 400 ms, with Redis and the loop both free (bench/README.md). Here
        the publishes asked for while one trip is under way wait in the order they came and all go in the next one:
        one pipeline (not a transaction), at most :data:`PIPELINE_MAX` publishes."""
        loop = asyncio.get_running_loop()
        sent: asyncio.Future[list[Any]] = loop.create_future()
        self._outbox.append((messages, sent))
        if self._publisher is None or self._publisher.done():
            self._publisher = loop.create_task(self._publish_waiting())
        return await sent

    async def _publish_waiting(self) -> None:
        while self._outbox:
            batch = [self._outbox.popleft()]  # the first always goes, however many publishes it holds
            count = len(batch[0][0])
            while self._outbox and count + len(self._outbox[0][0]) <= PIPELINE_MAX:
                count += len(self._outbox[0][0])
                batch.append(self._outbox.popleft())
            try:
                async with self._lock:  # upstream's flush takes it too
                    self._ensure_redis()
                    assert self._redis is not None
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for messages, _ in batch:
                            for channel, message in messages:
                                pipe.publish(channel, message)
                        outcomes = list(await pipe.execute(raise_on_error=False))
            except Exception as error:  # noqa: BLE001 - Redis unreachable: every publish of the batch failed
                for _, sent in batch:
                    if not sent.done():  # a caller cancelled meanwhile wants no answer
                        sent.set_exception(error)
                continue
            for messages, sent in batch:
                mine, outcomes = outcomes[: len(messages)], outcomes[len(messages) :]
                if not sent.done():
                    sent.set_result(mine)

    async def flush(self) -> None:
        pubsub = self._pubsub
        await super().flush()
        if pubsub is not None:
            await pubsub.aclose()
            await pubsub.connection_pool.disconnect()
        self._ready.clear()


class LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args: Any, hosts: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, hosts=hosts, **kwargs)
        self._shards = [Shard(host, self) for host in decode_hosts(hosts)]

    async def group_send_all(self, messages: list[tuple[str, dict[str, Any]]]) -> list[BaseException | None]:
        """:func:`group_send_all` on this layer: one round trip per shard."""
        batches: dict[Shard, list[tuple[int, str, bytes]]] = {}
        for index, (group, message) in enumerate(messages):
            channel = self._get_group_channel_name(group)
            batches.setdefault(self._get_shard(channel), []).append(
                (index, channel, self.channel_layer.serialize(message))
            )
        outcomes: list[BaseException | None] = [None] * len(messages)

        async def publish(shard: Shard, batch: list[tuple[int, str, bytes]]) -> None:
            try:
                results = await shard.publish_all([(channel, data) for _, channel, data in batch])
            except Exception as error:  # noqa: BLE001 - Redis unreachable: every publish of the batch failed
                results = [error] * len(batch)
            for (index, _, _), result in zip(batch, results, strict=True):
                outcomes[index] = result if isinstance(result, BaseException) else None

        await asyncio.gather(*(publish(shard, batch) for shard, batch in batches.items()))
        return outcomes


class ChannelLayer(RedisPubSubChannelLayer):
    """``channels_redis.pubsub.RedisPubSubChannelLayer`` with :class:`Shard`'s sockets (see the module's docstring)."""

    def _get_layer(self) -> LoopLayer:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = self._layers[loop] = LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
            return layer


async def group_send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> list[BaseException | None]:
    """Send each ``(group, message)``, and return each one's error (``None``: sent). On this module's layer they go in
    one round trip to Redis, in order: a move's broadcasts (its table's message and its dashboard row) were two
    publishes, each holding the shard's lock for a round trip of its own. On another layer (the in-memory one of
    ``make run``), one ``group_send`` each."""
    if isinstance(layer, ChannelLayer):
        return await layer._get_layer().group_send_all(messages)
    results = await asyncio.gather(
        *(layer.group_send(group, message) for group, message in messages), return_exceptions=True
    )
    return [result if isinstance(result, BaseException) else None for result in results]
