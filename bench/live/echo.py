"""The bare Channels echo the move round trip is compared with (docs/architecture.md: a move ≤ 2× this).

Served by Daphne exactly like the app, on the same Redis channel layer and with the same garbage collector settings
(``config.collector``), but with nothing of the app in the path: no origin check, no session, no database. Every
socket of ``ws/echo/<room>/`` joins the room's group; a text message from any of them is sent to the whole group, so
one message reaches 4 listeners the way a move reaches 4 seats.

``ws/echo-durable/<room>/`` is the same echo with one write to PostgreSQL committed before its send: the floor of a
move that keeps the design's rule, durable before broadcast (``bench/live/floor.py``).

    daphne bench.live.echo:application
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django.setup()  # the channel layer is configured by the project's settings (REDIS_URL)

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from config import asyncdb, collector  # noqa: E402

# The table is made by bench/live/floor.py in its scratch database.
FLOOR_INSERT = "INSERT INTO bench_floor (room, text) VALUES (%s, %s)"


class EchoConsumer(AsyncWebsocketConsumer):
    """Relays every message to everyone in the room, through the channel layer's group_send."""

    group_prefix = "echo"

    async def connect(self) -> None:
        self.room = self.scope["url_route"]["kwargs"]["room"]  # an int: the route's converter made it one
        self.group = f"{self.group_prefix}-{self.room}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.group, {"type": "echo.message", "text": text_data or ""})

    async def echo_message(self, message: dict) -> None:
        await self.send(text_data=message["text"])


class DurableEchoConsumer(EchoConsumer):
    """The echo, each message first written to PostgreSQL and committed, as a move's save is: on the event loop's own
    connections (``config.asyncdb``, in autocommit, so the INSERT is its own transaction and its log is flushed
    before it returns), one prepared statement. Nothing else of a move: no read, no rules, no views."""

    group_prefix = "echo-durable"

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        pool = await asyncdb.pool()
        if pool is None:
            raise RuntimeError("the durable echo needs PostgreSQL with its pool (DATABASE_URL, MOVES_ON_LOOP)")
        async with pool.connection() as conn:
            await conn.execute(FLOOR_INSERT, [self.room, text_data or ""], prepare=True)
        await super().receive(text_data, bytes_data)


application = ProtocolTypeRouter(
    {
        "websocket": URLRouter(
            [
                path("ws/echo/<int:room>/", EchoConsumer.as_asgi()),
                path("ws/echo-durable/<int:room>/", DurableEchoConsumer.as_asgi()),
            ]
        )
    }
)
collector.settle()  # as the app's processes do (config/asgi.py): the two compared on the same footing
