"""The class page's websocket: who may connect, how bad messages are answered, live roster pushes."""

import json

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from learning import services
from tests.conftest import communicator, refused_with

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("disconnect_communicators"),
]


def path_of(classroom) -> str:
    return f"/ws/classes/{classroom.id}/"


async def connected(classroom, user):
    ws = await communicator(path_of(classroom), user)
    connected, _ = await ws.connect()
    assert connected
    first = await ws.receive_json_from()
    assert first["type"] == "roster"
    return ws, first


async def test_teacher_gets_the_roster_on_connect(teacher, classroom, student):
    ws, first = await connected(classroom, teacher)
    assert [s["name"] for s in first["students"]] == [student.display_name]
    await ws.disconnect()


async def test_anonymous_connection_is_closed(classroom):
    ws = await communicator(path_of(classroom))
    assert await refused_with(ws) == 4401


async def test_foreign_origin_is_rejected(teacher, classroom):
    ws = await communicator(path_of(classroom), teacher, origin="http://evil.example")
    connected, _ = await ws.connect()
    assert not connected


async def test_student_of_another_class_is_refused(teacher, classroom):
    other = await database_sync_to_async(services.create_classroom)(teacher, "Other", "spa")
    outsider = await database_sync_to_async(services.join_classroom)(other.join_code, "Zed")
    ws = await communicator(path_of(classroom), await database_sync_to_async(lambda: outsider.user)())
    assert await refused_with(ws) == 4403


async def test_other_teacher_is_refused(other_teacher, classroom):
    ws = await communicator(path_of(classroom), other_teacher)
    assert await refused_with(ws) == 4403


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": "explode"}', "unknown_type"),
        ('{"type": "hello", "extra": 1}', "bad_message"),
        ('{"no_type": true}', "bad_message"),
    ],
)
async def test_bad_messages_get_an_error_and_the_connection_stays(teacher, classroom, raw, code):
    ws, _ = await connected(classroom, teacher)
    await ws.send_to(text_data=raw)
    error = await ws.receive_json_from()
    assert error["type"] == "error"
    assert error["code"] == code
    assert error["message"]
    await ws.send_json_to({"type": "hello"})
    assert (await ws.receive_json_from())["type"] == "roster"
    await ws.disconnect()


async def test_oversized_messages_are_refused(teacher, classroom):
    ws, _ = await connected(classroom, teacher)
    await ws.send_to(text_data=json.dumps({"type": "hello", "pad": "x" * 20000}))
    error = await ws.receive_json_from()
    assert error["code"] == "too_large"
    await ws.disconnect()


async def test_binary_frames_are_refused(teacher, classroom):
    ws, _ = await connected(classroom, teacher)
    await ws.send_to(bytes_data=b"\x00\x01")
    assert (await ws.receive_json_from())["code"] == "binary_not_supported"
    await ws.disconnect()


@override_settings(WEBSOCKET_RATE_LIMIT=(3, 60.0))
async def test_flooding_is_rate_limited(teacher, classroom):
    ws, _ = await connected(classroom, teacher)
    for _ in range(3):
        await ws.send_json_to({"type": "hello"})
        assert (await ws.receive_json_from())["type"] == "roster"
    await ws.send_json_to({"type": "hello"})
    assert (await ws.receive_json_from())["code"] == "rate_limited"
    await ws.disconnect()


async def test_roster_is_pushed_when_a_student_joins(teacher, classroom):
    ws, first = await connected(classroom, teacher)
    assert first["students"] == []
    await database_sync_to_async(services.join_classroom)(classroom.join_code, "Ana")
    pushed = await ws.receive_json_from(timeout=2)
    assert pushed["type"] == "roster"
    assert [s["name"] for s in pushed["students"]] == ["Ana"]
    await ws.disconnect()


async def test_roster_push_on_rename_and_lock(teacher, classroom, student):
    ws, _ = await connected(classroom, teacher)
    await database_sync_to_async(services.rename_student)(teacher, student.id, "Anita")
    assert [s["name"] for s in (await ws.receive_json_from(timeout=2))["students"]] == ["Anita"]
    await database_sync_to_async(services.set_locked)(teacher, classroom.id, True)
    assert (await ws.receive_json_from(timeout=2))["locked"] is True
    await ws.disconnect()


async def test_removed_student_is_told_and_disconnected(teacher, classroom, student):
    user = await database_sync_to_async(lambda: student.user)()
    ws, _ = await connected(classroom, user)
    await database_sync_to_async(services.remove_student)(teacher, student.id)
    messages = [await ws.receive_json_from(timeout=2), await ws.receive_json_from(timeout=2)]
    assert {m["type"] for m in messages} == {"roster", "removed"}
    assert (await ws.receive_output(timeout=2))["type"] == "websocket.close"
