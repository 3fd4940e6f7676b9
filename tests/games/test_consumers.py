"""The table websocket (docs/protocol.md), the dashboard websocket, and the class page's lesson push."""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from config import transport
from games.models import Table
from games.services import lessons, moderation, moves
from learning import services as learning_services
from tests.conftest import communicator, refused_with
from tests.games.conftest import seated

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("toy_game", "disconnect_communicators"),
]

db = database_sync_to_async


def path_of(table) -> str:
    return f"/ws/tables/{table.id}/"


async def users_of(table):
    return await db(seated)(table)


async def fresh(table) -> Table:
    return await db(Table.objects.get)(pk=table.pk)


async def join(table, user):
    """Connect ``user`` to the table; returns the socket and the snapshot it gets on joining."""
    ws = await communicator(path_of(table), user)
    connected, _ = await ws.connect()
    assert connected
    first = await ws.receive_json_from()
    assert first["type"] == "state"
    return ws, first


async def join_all(table, teacher):
    """Every seat and the teacher, connected; returns (sockets by seat + teacher last, their first snapshots)."""
    users = await users_of(table)
    pairs = [await join(table, u) for u in [*users, teacher]]
    return [ws for ws, _ in pairs], [snap for _, snap in pairs]


async def close_all(sockets):
    for ws in sockets:
        await ws.disconnect()


# -- joining ---------------------------------------------------------------------------------------------------
async def test_a_student_joins_with_a_snapshot_of_their_own_seat(table):
    users = await users_of(table)
    ws, snap = await join(table, users[1])
    state = (await fresh(table)).state
    assert snap["seq"] == 0
    assert snap["view"]["seat"] == 1
    assert snap["view"]["body"]["hand"] == state["hands"][1]
    assert [p["name"] for p in snap["table"]["players"]] == ["Ana", "Βασίλης", "Chloé"]
    assert snap["table"]["status"] == "playing"
    await ws.disconnect()


async def test_the_teacher_joins_as_a_spectator_without_hands(table, teacher):
    ws, snap = await join(table, teacher)
    assert snap["view"]["seat"] is None
    assert "hand" not in snap["view"]["body"]
    assert [a["type"] for a in snap["view"]["actions"]] == ["skip"]
    await ws.disconnect()


async def test_anonymous_is_closed_unauthenticated(table):
    ws = await communicator(path_of(table))
    assert await refused_with(ws) == 4401


async def test_students_not_at_the_table_are_refused(table, classroom):
    outsider = await db(learning_services.join_classroom)(classroom.join_code, "Outsider")
    ws = await communicator(path_of(table), await db(lambda: outsider.user)())
    assert await refused_with(ws) == 4403


async def test_another_teacher_is_refused(table, other_teacher):
    ws = await communicator(path_of(table), other_teacher)
    assert await refused_with(ws) == 4403


async def test_unknown_table_is_refused(teacher):
    ws = await communicator("/ws/tables/999999/", teacher)
    assert await refused_with(ws) == 4403


async def test_a_student_removed_from_the_class_is_refused(table, teacher):
    users = await users_of(table)
    student_id = await db(lambda: users[2].student.id)()
    await db(learning_services.remove_student)(teacher, student_id)
    ws = await communicator(path_of(table), users[2])
    assert await refused_with(ws) in (4401, 4403)  # the session's user is inactive: logged out, or not seated


# -- playing and censoring ---------------------------------------------------------------------------------------
async def test_a_move_reaches_every_seat_and_the_teacher_with_the_next_seq(table, teacher):
    sockets, _ = await join_all(table, teacher)
    card = (await fresh(table)).state["hands"][0][0]
    await sockets[0].send_json_to({"type": "action", "action": {"type": "play", "card": card}, "client_id": "c1"})
    for seat, ws in enumerate(sockets):
        message = await ws.receive_json_from(timeout=3)
        assert message["type"] == "event"
        assert message["seq"] == 1
        assert message["events"][0] == {"type": "played", "seat": 0, "card": card}
        assert message["view"]["body"]["turn"] == 1
        assert message["view"]["seat"] == (seat if seat < 3 else None)
    await close_all(sockets)


async def test_a_moves_message_leaves_out_the_fixed_parts_the_snapshot_carries(table, teacher):
    sockets, snapshots = await join_all(table, teacher)
    for snapshot in snapshots:
        assert snapshot["view"]["fixed"] == ["hand_size"]
        assert snapshot["view"]["body"]["hand_size"] == 2
    card = (await fresh(table)).state["hands"][0][0]
    await sockets[0].send_json_to({"type": "action", "action": {"type": "play", "card": card}, "client_id": "c1"})
    for ws in sockets:
        message = await ws.receive_json_from(timeout=3)
        assert message["type"] == "event"
        assert message["view"]["fixed"] == ["hand_size"]
        assert "hand_size" not in message["view"]["body"]
        assert message["view"]["body"]["turn"] == 1
    await sockets[1].send_json_to({"type": "hello", "last_seq": -1})
    snapshot = await sockets[1].receive_json_from(timeout=3)
    assert snapshot["type"] == "state"
    assert snapshot["view"]["body"]["hand_size"] == 2
    await close_all(sockets)


async def test_the_seat_that_moved_is_not_kept_waiting_for_the_work_after_its_broadcast(table, teacher, monkeypatch):
    """The consumer sends a move's broadcasts from a task of its own: its own seat's copy reaches the page while
    the rest (here, later work that does not finish until released) is still under way."""
    release = asyncio.Event()
    send = transport.send_deferred

    async def slow_send(deferred: transport.Deferred) -> None:
        await send(transport.Deferred(messages=deferred.messages))
        await release.wait()
        await send(transport.Deferred(later=deferred.later))

    monkeypatch.setattr(transport, "send_deferred", slow_send)
    sockets, _ = await join_all(table, teacher)
    card = (await fresh(table)).state["hands"][0][0]
    await sockets[0].send_json_to({"type": "action", "action": {"type": "play", "card": card}, "client_id": "c1"})
    mine = await sockets[0].receive_json_from(timeout=3)
    assert (mine["type"], mine["seq"]) == ("event", 1)
    release.set()
    await close_all(sockets)


async def test_no_seat_ever_receives_another_seats_cards(table, teacher):
    before = (await fresh(table)).state
    sockets, snaps = await join_all(table, teacher)
    users = await users_of(table)
    await db(moves.apply_action)(table.id, users[0], {"type": "draw"})
    events = [await ws.receive_json_from(timeout=3) for ws in sockets]
    after = (await fresh(table)).state
    assert after["hands"][0][-1] not in before["hands"][0]
    for recipient, snap, message in zip([0, 1, 2, None], snaps, events, strict=True):
        assert snap["view"]["seat"] == message["view"]["seat"] == recipient
        if recipient is None:
            assert "hand" not in snap["view"]["body"]
            assert "hand" not in message["view"]["body"]
        else:
            assert snap["view"]["body"]["hand"] == before["hands"][recipient]
            assert message["view"]["body"]["hand"] == after["hands"][recipient]
        (drew,) = message["events"]
        assert drew["type"] == "drew"
        assert drew["seat"] == 0
        assert ("card" in drew) == (recipient == 0)
        assert "_secret" not in drew
        assert "_to" not in drew
    assert events[0]["events"][0]["card"] == after["hands"][0][-1]
    await close_all(sockets)


async def test_out_of_turn_gets_an_error_and_a_fresh_snapshot_and_changes_nothing(table):
    users = await users_of(table)
    ws, _ = await join(table, users[1])
    card = (await fresh(table)).state["hands"][1][0]
    await ws.send_json_to({"type": "action", "action": {"type": "play", "card": card}, "client_id": "abc"})
    error = await ws.receive_json_from()
    assert error == {"type": "error", "code": "not_your_turn", "message": "It is not your turn.", "client_id": "abc"}
    snapshot = await ws.receive_json_from()
    assert snapshot["type"] == "state"
    assert snapshot["seq"] == 0
    assert card in snapshot["view"]["body"]["hand"]
    assert (await fresh(table)).version == 0
    await ws.disconnect()


async def test_an_error_goes_to_the_sender_only(table, teacher):
    sockets, _ = await join_all(table, teacher)
    await sockets[2].send_json_to({"type": "action", "action": {"type": "draw"}})
    assert (await sockets[2].receive_json_from())["code"] == "not_your_turn"
    for ws in sockets[:2] + sockets[3:]:
        assert await ws.receive_nothing(timeout=0.2)
    await close_all(sockets)


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "action", "action": "draw"}, "bad_message"),
        ({"type": "action"}, "bad_message"),
        ({"type": "action", "action": {"type": "draw"}, "client_id": 5}, "bad_message"),
        ({"type": "action", "action": {"kind": "draw"}}, "bad_action"),
        ({"type": "action", "action": {"type": "teleport"}}, "bad_action"),
        ({"type": "action", "action": {"type": "play", "card": "seven"}}, "bad_action"),  # the engine checks types
        ({"type": "hello", "last_seq": "zero"}, "bad_message"),
        ({"type": "shout"}, "unknown_type"),
    ],
)
async def test_malformed_messages_get_a_clear_error_and_change_nothing(table, message, code):
    users = await users_of(table)
    ws, _ = await join(table, users[0])
    await ws.send_json_to(message)
    error = await ws.receive_json_from()
    assert error["type"] == "error"
    assert error["code"] == code
    assert error["message"]
    assert (await fresh(table)).version == 0
    await ws.disconnect()


async def test_teacher_only_actions_are_refused_for_students_and_work_for_the_teacher(table, teacher):
    users = await users_of(table)
    student_ws, _ = await join(table, users[0])
    teacher_ws, _ = await join(table, teacher)
    await student_ws.send_json_to({"type": "action", "action": {"type": "skip"}, "client_id": "s"})
    assert (await student_ws.receive_json_from())["code"] == "teacher_only"
    assert (await student_ws.receive_json_from())["type"] == "state"
    await teacher_ws.send_json_to({"type": "action", "action": {"type": "skip"}, "client_id": "t"})
    event = await teacher_ws.receive_json_from(timeout=3)
    assert event["type"] == "event"
    assert event["events"][0] == {"type": "skipped", "seat": 0}
    assert (await student_ws.receive_json_from(timeout=3))["view"]["body"]["turn"] == 1
    await close_all([student_ws, teacher_ws])


async def test_a_paused_table_refuses_actions_and_every_page_is_told(table, teacher):
    users = await users_of(table)
    ws, _ = await join(table, users[0])
    await db(moderation.pause_table)(teacher, table.id)
    pushed = await ws.receive_json_from(timeout=3)
    assert pushed["type"] == "state"
    assert pushed["table"]["status"] == "paused"
    await ws.send_json_to({"type": "action", "action": {"type": "draw"}})
    assert (await ws.receive_json_from())["code"] == "paused"
    await ws.disconnect()


# -- reconnecting ------------------------------------------------------------------------------------------------
async def test_reconnecting_after_missed_moves_gets_a_snapshot(table, teacher):
    users = await users_of(table)
    ws, _ = await join(table, users[2])
    await ws.disconnect()
    await db(moves.apply_action)(table.id, users[0], {"type": "draw"})
    await db(moves.apply_action)(table.id, teacher, {"type": "skip"})
    ws, snap = await join(table, users[2])
    assert snap["seq"] == 2
    assert snap["view"]["body"]["turn"] == 1
    await ws.disconnect()


async def test_hello_behind_the_table_gets_a_snapshot_and_up_to_date_gets_nothing(table, teacher):
    users = await users_of(table)
    ws, _ = await join(table, users[2])
    await ws.send_json_to({"type": "hello", "last_seq": 0})
    assert await ws.receive_nothing(timeout=0.2)
    await db(moves.apply_action)(table.id, teacher, {"type": "skip"})
    assert (await ws.receive_json_from(timeout=3))["seq"] == 1
    await ws.send_json_to({"type": "hello", "last_seq": 0})
    snapshot = await ws.receive_json_from()
    assert (snapshot["type"], snapshot["seq"]) == ("state", 1)
    await ws.disconnect()


async def test_a_removed_player_is_told_and_disconnected_and_others_carry_on(table, teacher):
    users = await users_of(table)
    removed_ws, _ = await join(table, users[0])
    other_ws, _ = await join(table, users[1])
    await db(moderation.remove_player)(teacher, table.id, 0)
    told = await removed_ws.receive_json_from(timeout=3)
    assert told["type"] == "removed"
    assert (await removed_ws.receive_output(timeout=3))["type"] == "websocket.close"
    event = await other_ws.receive_json_from(timeout=3)
    assert event["seq"] == 1
    assert event["view"]["body"]["turn"] == 1
    assert [p["removed"] for p in event["table"]["players"]] == [True, False, False]
    await other_ws.disconnect()
    again = await communicator(path_of(table), users[0])
    assert await refused_with(again) == 4403


# -- the dashboard and the class page ------------------------------------------------------------------------------
async def test_the_dashboard_lists_tables_and_follows_moves(lesson, table, teacher):
    ws = await communicator(f"/ws/lessons/{lesson.id}/", teacher)
    assert (await ws.connect())[0]
    first = await ws.receive_json_from()
    assert first["type"] == "dashboard"
    (row,) = first["rows"]
    assert row["to_act"] == ["Ana"]
    assert [p["score"] for p in row["players"]] == [0, 0, 0]
    users = await users_of(table)
    card = (await fresh(table)).state["hands"][0][0]
    await db(moves.apply_action)(table.id, users[0], {"type": "play", "card": card})
    pushed = await ws.receive_json_from(timeout=3)
    assert pushed["type"] == "row"
    assert pushed["row"]["to_act"] == ["Βασίλης"]
    assert pushed["row"]["players"][0]["score"] == card % 10
    assert pushed["row"]["seq"] == 1
    await ws.disconnect()


async def test_the_dashboard_is_for_the_teacher_only(lesson, table, other_teacher):
    users = await users_of(table)
    for user in (users[0], other_teacher):
        ws = await communicator(f"/ws/lessons/{lesson.id}/", user)
        assert await refused_with(ws) == 4403


async def test_starting_a_lesson_sends_each_student_to_their_own_table(teacher, classroom, students):
    users = [await db(lambda s=s: s.user)() for s in students]
    sockets = []
    for user in [*users, teacher]:
        ws = await communicator(f"/ws/classes/{classroom.id}/", user)
        assert (await ws.connect())[0]
        assert (await ws.receive_json_from())["type"] == "roster"
        sockets.append(ws)
    lesson = await db(lessons.start_lesson)(teacher, classroom, "toy", None, {}, [[students[0].id], [students[1].id]])
    tables = await db(lambda: {s.student_id: s.table_id for t in lesson.tables.all() for s in t.seats.all()})()
    for student, ws in zip(students[:2], sockets[:2], strict=True):
        message = await ws.receive_json_from(timeout=3)
        assert message == {"type": "lesson", "url": f"/games/tables/{tables[student.id]}/"}
    assert await sockets[2].receive_nothing(timeout=0.2)  # not seated
    assert await sockets[3].receive_nothing(timeout=0.2)  # the teacher goes to the dashboard from the form
    await close_all(sockets)


async def test_client_ids_are_bounded_in_the_reply(table):
    users = await users_of(table)
    ws, _ = await join(table, users[1])
    await ws.send_to(text_data=json.dumps({"type": "action", "action": {"type": "draw"}, "client_id": "x" * 500}))
    assert (await ws.receive_json_from())["client_id"] == "x" * 64
    assert (await ws.receive_json_from())["type"] == "state"  # the snapshot after a refusal, read before leaving
    await ws.disconnect()


async def test_a_class_page_opened_during_a_lesson_is_told_the_students_table(table, classroom):
    """The lesson's start is pushed once; a page that connects after it (or missed it) learns the table on hello."""
    users = await users_of(table)
    ws = await communicator(f"/ws/classes/{classroom.id}/", users[0])
    connected, _ = await ws.connect()
    assert connected
    roster = await ws.receive_json_from(timeout=3)
    assert roster["type"] == "roster"
    assert roster["table_url"] == f"/games/tables/{table.id}/"
    await ws.disconnect()
