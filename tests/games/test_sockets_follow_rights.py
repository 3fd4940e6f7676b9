"""Open sockets close when their user logs out or is removed: nothing can be played on them afterwards."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.models import Seat, Table
from learning import services
from tests.conftest import communicator
from tests.games.conftest import seated

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("disconnect_communicators")]


async def open_table(table, user):
    ws = await communicator(f"/ws/tables/{table.id}/", user)
    connected, _ = await ws.connect()
    assert connected
    assert (await ws.receive_json_from())["type"] == "state"
    return ws


def test_removing_a_student_releases_their_seats(teacher, table):
    seat = Seat.objects.filter(table=table, number=1).select_related("student").get()
    services.remove_student(teacher, seat.student_id)
    seat.refresh_from_db()
    assert seat.removed
    table.refresh_from_db()
    assert 1 in table.state["removed"]


@pytest.mark.asyncio
async def test_logging_out_closes_the_open_table_page(table):
    user = (await database_sync_to_async(seated)(table))[0]
    ws = await open_table(table, user)

    def log_out() -> None:
        client = Client()
        client.force_login(user)
        client.post("/logout/")

    await database_sync_to_async(log_out)()
    assert (await ws.receive_json_from(timeout=3))["type"] == "logged_out"
    assert (await ws.receive_output(timeout=3)) == {"type": "websocket.close", "code": 4401}


@pytest.mark.asyncio
async def test_a_removed_student_loses_the_table_page_and_the_seat(teacher, table):
    user = (await database_sync_to_async(seated)(table))[1]
    ws = await open_table(table, user)
    student_id = await database_sync_to_async(lambda: user.student.pk)()
    await database_sync_to_async(services.remove_student)(teacher, student_id)
    kinds = set()
    while True:
        message = await ws.receive_output(timeout=3)
        if message["type"] == "websocket.close":
            break
        kinds.add(__import__("json").loads(message["text"])["type"])
    assert "removed" in kinds
    state = (await database_sync_to_async(Table.objects.get)(pk=table.pk)).state
    assert 1 in state["removed"]
