"""bench/live/floor.py's durable echo: the bare echo with one write committed before its send, the least a move that
is durable before its broadcast can take. Every listener of the room gets the message, and the write is committed
(read from another connection) by the time the first of them has it."""

import importlib

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection

from config import asyncdb, collector
from tests.conftest import needs_postgresql

pytestmark = [
    needs_postgresql("the durable echo writes on the event loop's psycopg connections"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
]


@pytest.fixture
def echo(monkeypatch):
    """The module bench.live.echo, without the server process's start-up (which freezes the garbage collector's view
    of the whole process: not this test process's business)."""
    monkeypatch.setattr(collector, "settle", lambda: None)
    return importlib.import_module("bench.live.echo")


@pytest.fixture
def floor_table(transactional_db):
    from bench.live.floor import CREATE_FLOOR_TABLE

    with connection.cursor() as cursor:
        cursor.execute(CREATE_FLOOR_TABLE)
    yield
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE bench_floor")


def _written() -> list[tuple[int, str]]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT room, text FROM bench_floor ORDER BY id")
        return list(cursor.fetchall())


async def test_the_durable_echo_commits_its_write_before_anyone_hears_it(echo, floor_table, monkeypatch):
    # The write made slow, so that a send not waiting for its commit would reach the listeners first.
    slow = "INSERT INTO bench_floor (room, text) SELECT %s, %s FROM pg_sleep(0.3)"
    monkeypatch.setattr(echo, "FLOOR_INSERT", slow)
    room = [WebsocketCommunicator(echo.application, "/ws/echo-durable/7/") for _ in range(3)]
    other = WebsocketCommunicator(echo.application, "/ws/echo/7/")  # the plain echo's room 7 is another group
    try:
        for ws in [*room, other]:
            connected, _ = await ws.connect()
            assert connected
        await room[1].send_to(text_data='{"seq": 41}')
        assert await room[0].receive_from(timeout=5) == '{"seq": 41}'
        assert await database_sync_to_async(_written)() == [(7, '{"seq": 41}')]
        for ws in room[1:]:
            assert await ws.receive_from(timeout=5) == '{"seq": 41}'
        assert await other.receive_nothing(timeout=0.2)
        await other.send_to(text_data="plain")
        assert await other.receive_from(timeout=5) == "plain"
        assert await database_sync_to_async(_written)() == [(7, '{"seq": 41}')]  # the plain echo writes nothing
    finally:
        for ws in [*room, other]:
            await ws.disconnect()
        await asyncdb.close()
