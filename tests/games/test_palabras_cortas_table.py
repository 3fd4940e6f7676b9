"""Palabras Cortas played through the framework: hidden hands over the websocket, a hand played to its scores."""

import pytest
from channels.db import database_sync_to_async

from games import selectors
from games.engine import AppError, score_totals
from games.models import Table
from games.services import lessons, moves
from learning import services as learning_services
from tests.conftest import communicator
from tests.games.conftest import seated


@pytest.fixture
def spanish(teacher):
    return learning_services.create_classroom(teacher, "Español 2", "spa")


@pytest.fixture
def pc_table(teacher, spanish) -> Table:
    for name in ("Lucía", "Mateo"):
        learning_services.join_classroom(spanish.join_code, name)
    lesson = lessons.start_lesson(teacher, spanish, "palabras_cortas", None, {"checking": "challenge"}, 2)
    return lesson.tables.get()


def play_first_hand(table: Table) -> None:
    """The first player draws and goes out with one word of three cards; the other draws and discards; both
    say they are ready after the review."""
    users = seated(table)
    table.refresh_from_db()
    first = table.state["turn"]
    moves.apply_action(table.id, users[first], {"type": "draw_stock"})
    table.refresh_from_db()
    hand = table.state["hands"][first]
    moves.apply_action(table.id, users[first], {"type": "go_out", "words": [hand[:3]], "card": hand[3]})
    table.refresh_from_db()
    second = table.state["turn"]
    moves.apply_action(table.id, users[second], {"type": "draw_stock"})
    table.refresh_from_db()
    moves.apply_action(table.id, users[second], {"type": "discard", "card": table.state["hands"][second][0]})
    for user in users:
        moves.apply_action(table.id, user, {"type": "ready"})
    table.refresh_from_db()


@pytest.mark.django_db
def test_a_hand_is_played_to_its_scores_and_replays(pc_table):
    play_first_hand(pc_table)
    assert pc_table.state["hand_number"] == 2
    history = pc_table.state["history"][0]
    events = [ev for move in pc_table.moves.order_by("seq") for ev in move.events]
    assert score_totals(events, 2) == pc_table.state["totals"]
    assert {b["bonus"] for b in history["bonuses"]} == {"longest"}  # two players: one bonus
    row = selectors.dashboard_row(pc_table)
    assert [p["score"] for p in row["players"]] == pc_table.state["totals"]
    assert selectors.replayed_state(pc_table) == pc_table.state


@pytest.mark.django_db
def test_a_bad_card_is_refused_with_the_rules_message(pc_table):
    users = seated(pc_table)
    first = pc_table.state["turn"]
    moves.apply_action(pc_table.id, users[first], {"type": "draw_stock"})
    with pytest.raises(AppError) as caught:
        moves.apply_action(pc_table.id, users[first], {"type": "discard", "card": 10_000})
    assert (caught.value.code, caught.value.message) == ("not_held", "You do not hold that card.")


@pytest.mark.usefixtures("disconnect_communicators")
@pytest.mark.django_db(transaction=True)
async def test_over_the_websocket_each_student_sees_only_their_own_cards(pc_table, teacher):
    users = await database_sync_to_async(seated)(pc_table)
    sockets, snapshots = [], []
    for user in [*users, teacher]:
        ws = await communicator(f"/ws/tables/{pc_table.id}/", user)
        assert (await ws.connect())[0]
        snapshots.append(await ws.receive_json_from())
        sockets.append(ws)
    state = pc_table.state
    for seat in (0, 1):
        assert [c["id"] for c in snapshots[seat]["view"]["body"]["hand"]] == state["hands"][seat]
    assert "hand" not in snapshots[2]["view"]["body"]
    first = state["turn"]
    await sockets[first].send_json_to({"type": "action", "action": {"type": "draw_stock"}, "client_id": "d"})
    received = [await ws.receive_json_from(timeout=3) for ws in sockets]
    drawn = next(ev for ev in received[first]["events"] if ev["type"] == "draw")
    assert "card" in drawn
    for other in {0, 1, 2} - {first}:
        (seen,) = [ev for ev in received[other]["events"] if ev["type"] == "draw"]
        assert "card" not in seen
        assert received[other]["view"]["body"]["hand_counts"][first] == len(state["hands"][first]) + 1
        assert received[other]["view"]["body"].get("hand") != received[first]["view"]["body"]["hand"]
    for ws in sockets:
        await ws.disconnect()
