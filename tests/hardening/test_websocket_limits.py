"""Hostile websocket input: frames that used to close the socket with a traceback, too many sockets or messages
from one user, and pages of other origins."""

import json

import pytest
from django.test import override_settings

from tests.conftest import communicator, refused_with

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("disconnect_communicators"),
]


def path_of(classroom) -> str:
    return f"/ws/classes/{classroom.id}/"


async def connected(classroom, user, origin: str = "http://testserver"):
    ws = await communicator(path_of(classroom), user, origin=origin)
    ok, _ = await ws.connect()
    assert ok
    assert (await ws.receive_json_from())["type"] == "roster"
    return ws


async def still_answers(ws) -> None:
    """The socket is still open and served after the refusal."""
    await ws.send_json_to({"type": "hello"})
    assert (await ws.receive_json_from())["type"] == "roster"


@pytest.mark.parametrize(
    "frame",
    [
        "[" * 1500 + "]" * 1500,
        '{"type": "hello", "x": ' + "[" * 1500 + "]" * 1500 + "}",
        '{"type": "\\ud800"}',
        '{"type": "hello", "\\udfff": 1}',
        '{"type": "hel\\u0000lo"}',
        '{"type": "hello", "n": NaN}',
        '{"type": "hello", "n": -Infinity}',
    ],
)
async def test_a_malformed_frame_is_answered_and_the_socket_kept(teacher, classroom, frame):
    ws = await connected(classroom, teacher)
    await ws.send_to(text_data=frame)
    answer = await ws.receive_json_from()
    assert answer["type"] == "error"
    assert answer["code"] == "bad_json"
    await still_answers(ws)


async def test_brackets_inside_text_are_not_nesting(teacher, classroom):
    ws = await connected(classroom, teacher)
    await ws.send_to(text_data=json.dumps({"type": "hello", "note": "[" * 100}))
    answer = await ws.receive_json_from()
    assert answer["code"] == "bad_message"  # refused for its unknown field, not as JSON
    assert "note" in answer["message"]


@override_settings(WEBSOCKET_MAX_SOCKETS_PER_PAGE=2)
async def test_a_user_holds_only_a_few_sockets_to_one_page(teacher, classroom):
    first = await connected(classroom, teacher)
    await connected(classroom, teacher)
    third = await communicator(path_of(classroom), teacher)
    assert await refused_with(third) == 4429
    await first.disconnect()
    await connected(classroom, teacher)  # a closed socket frees its place


@override_settings(WEBSOCKET_RATE_LIMIT=(100, 60.0), WEBSOCKET_USER_RATE_LIMIT=(3, 60.0))
async def test_a_user_is_rate_limited_across_their_sockets(teacher, classroom):
    a = await connected(classroom, teacher)
    b = await connected(classroom, teacher)
    for ws in (a, b, a):
        await still_answers(ws)
    await b.send_json_to({"type": "hello"})
    assert (await b.receive_json_from())["code"] == "rate_limited"


@pytest.mark.parametrize(
    "origin",
    ["http://testserver:9999", "https://testserver", "http://evil.example", "null", "http://testserver.evil.example"],
)
async def test_another_origin_is_refused(teacher, classroom, origin):
    ws = await communicator(path_of(classroom), teacher, origin=origin)
    assert await refused_with(ws) == 4403


@override_settings(CSRF_TRUSTED_ORIGINS=["https://class.example"])
async def test_a_trusted_origin_is_admitted(teacher, classroom):
    await connected(classroom, teacher, origin="https://class.example")


class DownLayer:
    """A channel layer whose Redis is unreachable."""

    async def group_add(self, group, channel):
        from redis.exceptions import ConnectionError as RedisConnectionError

        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    async def group_discard(self, group, channel):
        raise OSError("down")

    async def new_channel(self, prefix="specific."):
        return f"{prefix}down"

    async def receive(self, channel):
        import asyncio

        await asyncio.Event().wait()


async def test_a_connect_while_redis_is_down_is_refused_cleanly(teacher, classroom, monkeypatch, caplog):
    from channels import layers

    monkeypatch.setattr(layers.channel_layers, "backends", {"default": DownLayer()})
    ws = await communicator(path_of(classroom), teacher)
    # Accepted, then closed with "try again later" (the page reconnects with backoff): a socket closed during its
    # handshake would reach the page as Daphne's HTTP 403, which says nothing of trying again.
    connected, _ = await ws.connect()
    assert connected
    assert await ws.receive_output(timeout=3) == {"type": "websocket.close", "code": 4013}
    assert "Traceback" not in caplog.text
