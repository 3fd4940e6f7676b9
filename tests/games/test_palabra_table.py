"""Palabra through the live framework: hidden hands over the websocket, a shave, a vote settled by the teacher's
check and a joker through the services, the impatient timer on the server's clock, and junk actions refused
with a message (never a crash). Hands are arranged with the rules' own test helper."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import AppError, score_totals
from games.models import Table
from games.rules.palabra.common import TIMER_SECONDS
from games.services import lessons, moves
from learning import services as learning_services
from tests.browser.test_palabra import arrange_table, english_lexicon
from tests.conftest import communicator
from tests.games.conftest import seated
from tests.games.rules.test_palabra import PALABRA


@pytest.fixture
def english(teacher):
    return learning_services.create_classroom(teacher, "English 1", "eng")


def palabra_table(teacher, classroom, options=None, lexicon=True) -> Table:
    for name in ("Amy", "Ben", "Cleo"):
        learning_services.join_classroom(classroom.join_code, name)
    lexicon = english_lexicon() if lexicon else None
    lesson = lessons.start_lesson(teacher, classroom, "palabra", lexicon, options or {}, 3)
    return lesson.tables.get()


@pytest.fixture
def table(teacher, english) -> Table:
    return palabra_table(teacher, english)


def act(table: Table, user, action: dict) -> Table:
    moves.apply_action(table.id, user, action)
    table.refresh_from_db()
    return table


def refused(table: Table, user, action: dict) -> AppError:
    with pytest.raises(AppError) as caught:
        moves.apply_action(table.id, user, action)
    return caught.value


# -- the page --------------------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_table_page_loads_the_palabra_renderer_and_its_styles(table):
    client = Client()
    client.force_login(seated(table)[0])
    page = client.get(reverse("games:table", args=[table.id])).content.decode()
    assert "games/renderers/palabra.js" in page
    assert "games/palabra.css" in page


@pytest.mark.django_db
def test_other_games_do_not_load_the_palabra_styles(teacher):
    spanish = learning_services.create_classroom(teacher, "Español", "spa")
    for name in ("Lucía", "Mateo"):
        learning_services.join_classroom(spanish.join_code, name)
    other = lessons.start_lesson(teacher, spanish, "palabras_cortas", None, {}, 2).tables.get()
    client = Client()
    client.force_login(teacher)
    assert "games/palabra.css" not in client.get(reverse("games:table", args=[other.id])).content.decode()


# -- a game through the services -------------------------------------------------------------------------------
@pytest.mark.django_db
def test_palabra_shave_vote_check_and_joker_score_as_the_rulebook_says(table, teacher):
    users = seated(table)
    ids = arrange_table(table, {0: PALABRA, 1: ["PGY", "RRB", "CG", "AB", "wild"], 2: ["joker", "D"]})
    start = table.version
    act(table, users[0], {"type": "word", "cards": ids[0]})
    shave = [{"card": ids[1][0], "at": 0}, {"card": ids[1][1], "at": 5}]
    act(table, users[1], {"type": "shave", "seat": 0, "cards": shave})
    assert table.state["scores"] == [151, 27, 0]
    cat = [ids[1][2], ids[1][3], {"card": ids[1][4], "letter": "T"}]
    act(table, users[1], {"type": "word", "cards": cat})
    assert table.state["phase"] == "vote"
    act(table, users[0], {"type": "vote", "accept": False})
    act(table, users[2], {"type": "vote", "accept": False})
    act(table, users[1], {"type": "insist"})
    act(table, teacher, {"type": "check"})
    assert table.state["scores"] == [151, 31, 0]
    act(table, users[2], {"type": "joker", "targets": [{"card": ids[2][0], "seat": 0}]})
    assert table.state["scores"] == [0, 31, 0]
    events = [ev for move in table.moves.filter(seq__gt=start).order_by("seq") for ev in move.events]
    assert score_totals(events, 3) == table.state["scores"]


@pytest.mark.django_db
def test_a_word_not_in_the_lexicon_is_withdrawn_by_the_teachers_check(table, teacher):
    users = seated(table)
    ids = arrange_table(table, {0: ["D", "O", "T"], 1: [], 2: []})
    act(table, users[0], {"type": "word", "cards": ids[0]})
    act(table, teacher, {"type": "check"})
    assert table.state["pending"] is None
    assert table.state["phase"] == "play"
    assert table.state["turn"] == 0
    assert sorted(table.state["hands"][0]) == sorted(ids[0])


@pytest.mark.django_db
def test_without_a_lexicon_the_teachers_check_says_why(teacher, english):
    table = palabra_table(teacher, english, lexicon=False)
    users = seated(table)
    ids = arrange_table(table, {0: ["C", "A", "T"], 1: [], 2: []})
    act(table, users[0], {"type": "word", "cards": ids[0]})
    error = refused(table, teacher, {"type": "check"})
    assert error.code == "no_lexicon"
    assert "no word list" in error.message


@pytest.mark.django_db
def test_only_the_player_on_turn_plays_and_the_teacher_plays_no_cards(table, teacher):
    users = seated(table)
    ids = arrange_table(table, {0: ["C", "A", "T"], 1: ["D", "O", "G"], 2: []})
    assert refused(table, users[1], {"type": "word", "cards": ids[1]}).code == "not_your_turn"
    assert refused(table, teacher, {"type": "pass"}).code == "not_allowed"  # the engine: the teacher has no seat
    assert refused(table, users[0], {"type": "word", "cards": ids[1]}).code == "not_held"


# -- the impatient timer -----------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_impatient_timer_runs_on_the_servers_clock(teacher, english, monkeypatch):
    table = palabra_table(teacher, english, options={"impatient_timer": True})
    users = seated(table)
    arrange_table(table, {0: ["C"], 1: ["D"], 2: ["E"]})
    act(table, users[2], {"type": "start_timer"})
    assert table.state["turn"] == 0
    early = refused(table, users[1], {"type": "timer_expired"})
    assert early.code == "not_allowed"
    assert "runs until" in early.message
    later = timezone.now() + timedelta(seconds=TIMER_SECONDS + 1)
    monkeypatch.setattr(moves.timezone, "now", lambda: later)
    act(table, users[1], {"type": "timer_expired"})
    assert table.state["turn"] == 1
    assert table.state["timer"] is None
    assert refused(table, users[2], {"type": "timer_expired"}).message == "No timer is running."


# -- hidden hands ------------------------------------------------------------------------------------------------
@pytest.mark.usefixtures("disconnect_communicators")
@pytest.mark.django_db(transaction=True)
async def test_over_the_websocket_each_student_sees_only_their_own_hand(teacher, english):
    table = await database_sync_to_async(palabra_table)(teacher, english)
    users = await database_sync_to_async(seated)(table)
    ids = await database_sync_to_async(arrange_table)(table, {0: PALABRA, 1: ["C"], 2: ["D"]})
    sockets, snapshots = [], []
    for user in [*users, teacher]:
        ws = await communicator(f"/ws/tables/{table.id}/", user)
        assert (await ws.connect())[0]
        snapshots.append(await ws.receive_json_from())
        sockets.append(ws)
    for seat in range(3):
        assert [c["id"] for c in snapshots[seat]["view"]["body"]["hand"]] == ids[seat]
        assert snapshots[seat]["view"]["body"]["hand_counts"] == [7, 1, 1]
    assert snapshots[3]["view"]["body"]["hand"] is None
    await sockets[0].send_json_to({"type": "action", "action": {"type": "word", "cards": ids[0]}, "client_id": "w"})
    received = [await ws.receive_json_from(timeout=3) for ws in sockets]
    drew = [[ev for ev in message["events"] if ev["type"] == "drew"] for message in received]
    assert "cards" in drew[0][0]
    assert all("cards" not in ev for others in drew[1:] for ev in others)
    assert [message["view"]["scores"]["total"] for message in received] == [[178, 0, 0]] * 4
    for ws in sockets:
        await ws.disconnect()


# -- junk from the page ------------------------------------------------------------------------------------------
TYPES = ["word", "straight", "build", "flush", "vowels", "exchange", "joker", "shave", "vote", "check",
         "start_timer", "timer_expired", "withdraw", "insist", "challenge", "concede", "pass", "nonsense"]  # fmt: skip
FIELDS = st.sampled_from(["card", "at", "seat", "letter"])
JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(FIELDS, inner),
    max_leaves=6,
)
ACTIONS = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={
        "cards": JUNK, "seat": JUNK, "before": JUNK, "after": JUNK, "targets": JUNK, "accept": JUNK, "letter": JUNK,
    },
)  # fmt: skip


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=ACTIONS, who=st.integers(0, 3))
def test_any_action_from_a_page_is_applied_or_refused_with_a_message(table, teacher, action, who):
    user = [*seated(table), teacher][who]
    try:
        moves.apply_action(table.id, user, action)
    except AppError as error:
        assert error.code
        assert error.message
