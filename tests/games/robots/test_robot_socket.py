"""A student's move over the table's socket at a table with a robot: the robot's turn is scheduled after the
move's broadcasts, for the version the move left."""

import pytest
from channels.db import database_sync_to_async

from games.models import Table
from games.services import practice
from games.services import robots as robot_service
from learning import services as learning_services
from tests.conftest import communicator

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("disconnect_communicators"),
]
db = database_sync_to_async


async def test_a_robot_answers_a_move_made_over_the_socket(classroom):
    robot_service.PENDING.clear()
    ana = await db(learning_services.join_classroom)(classroom.join_code, "Ana")
    table = await db(practice.start_practice)(ana.user, "pablo", 1, "steady")
    await db(robot_service.run_pending)()  # the robot's first look at its cards
    ws = await communicator(f"/ws/tables/{table.id}/", ana.user)
    connected, _ = await ws.connect()
    assert connected
    snapshot = await ws.receive_json_from()
    assert [p["name"] for p in snapshot["table"]["players"]] == ["Ana", "Steady robot"]
    offered = {a["type"]: a for a in snapshot["view"]["actions"]}
    slot = offered["first_look"]["fields"][0]["choices"][0]
    await ws.send_json_to({"type": "action", "action": {"type": "first_look", "slot": slot}})
    mine = await ws.receive_json_from()
    assert mine["type"] == "event"
    for _ in range(20):  # the robot's turn is scheduled once the move's broadcasts are out
        if robot_service.PENDING:
            break
        await ws.receive_nothing(timeout=0.05)
    assert robot_service.PENDING
    version = (await db(Table.objects.get)(pk=table.id)).version
    assert robot_service.PENDING[-1] == (table.id, version)  # for the table as Ana's move left it
    await ws.disconnect()
