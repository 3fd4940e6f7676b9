"""Lessons and tables: starting, seating, applying actions in one transaction, moderating, restarting."""

import json
import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import set_script_prefix
from hypothesis import given, settings
from hypothesis import strategies as st

from games import selectors
from games.engine import AppError
from games.models import Lesson, Move, Table
from games.services import lessons, moderation, moves
from learning import services as learning_services
from tests.games.conftest import seated
from tests.games.toygame import TOY

REAL_WORD_LIST_FOR = selectors.word_list_for
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_game")]


def to_act(table: Table) -> int:
    return TOY.status(table.state).to_act[0]


def play_first_card(table: Table):
    """The seat to act plays the first card of its hand."""
    seat = to_act(table)
    user = seated(table)[seat]
    return moves.apply_action(table.id, user, {"type": "play", "card": table.state["hands"][seat][0]})


# -- starting a lesson -----------------------------------------------------------------------------------------
def test_start_lesson_deals_one_table_per_group_and_logs_the_deal(lesson):
    table = lesson.tables.get()
    assert [s.student.display_name for s in table.seats.order_by("number")] == ["Ana", "Βασίλης", "Chloé"]
    assert table.version == 0
    assert table.status == Table.Status.PLAYING
    start = table.moves.get()
    assert (start.seq, start.kind) == (0, Move.Kind.START)
    assert [ev["type"] for ev in start.events] == ["dealt"] * 3
    assert table.state == TOY.new_game(3, {}, table.seed)[0]


def test_start_lesson_cleans_the_options(lesson):
    assert lesson.options == {"hand_size": 2, "clock_seconds": 0}  # the engine's turn clock, off by default
    assert lesson.tables.get().options == {"hand_size": 2, "clock_seconds": 0}


def test_auto_seating_splits_the_class_evenly(teacher, classroom, students):
    more = [learning_services.join_classroom(classroom.join_code, f"Student {i}") for i in range(4)]
    lesson = lessons.start_lesson(teacher, classroom, "toy", None, {"hand_size": 1}, 3)
    sizes = sorted(t.seats.count() for t in lesson.tables.all())
    assert sizes == [2, 2, 3]
    seated_ids = sorted(s.student_id for t in lesson.tables.all() for s in t.seats.all())
    assert seated_ids == sorted(s.id for s in students + more)


def test_each_table_gets_its_own_seed(teacher, classroom, students):
    lesson = lessons.start_lesson(teacher, classroom, "toy", None, {}, 1)
    assert len({t.seed for t in lesson.tables.all()}) == 3


@pytest.mark.parametrize(
    ("options", "code"),
    [({"hand_size": 9}, "bad_option"), ({"colour": "red"}, "bad_option")],
)
def test_bad_options_are_refused(teacher, classroom, students, options, code):
    with pytest.raises(AppError) as caught:
        lessons.start_lesson(teacher, classroom, "toy", None, options, 3)
    assert caught.value.code == code
    assert not Lesson.objects.exists()


def test_only_the_classs_teacher_starts_a_lesson(other_teacher, classroom, students):
    with pytest.raises(AppError) as caught:
        lessons.start_lesson(other_teacher, classroom, "toy", None, {}, 3)
    assert caught.value.code == "forbidden"


def test_a_second_lesson_waits_for_the_first_to_end(teacher, classroom, lesson):
    with pytest.raises(AppError) as caught:
        lessons.start_lesson(teacher, classroom, "toy", None, {}, 3)
    assert caught.value.code == "lesson_running"
    lessons.end_lesson(teacher, lesson.id)
    assert lessons.start_lesson(teacher, classroom, "toy", None, {}, 3).ended is None


def test_ending_a_lesson_finishes_its_tables(teacher, lesson):
    lessons.end_lesson(teacher, lesson.id)
    assert lesson.tables.get().status == Table.Status.FINISHED
    assert Lesson.objects.get(pk=lesson.pk).ended is not None


def test_unknown_game_is_refused(teacher, classroom, students):
    with pytest.raises(AppError) as caught:
        lessons.start_lesson(teacher, classroom, "chess", None, {}, 2)
    assert caught.value.code == "unknown_game"


@pytest.mark.parametrize(
    ("seating", "code"),
    [
        (lambda ids, outsider: [[ids[0], ids[0]]], "bad_seating"),
        (lambda ids, outsider: [[ids[0], outsider]], "bad_seating"),
        (lambda ids, outsider: [[*ids, outsider]], "bad_seating"),
        (lambda ids, outsider: [[]], "no_tables"),
    ],
)
def test_hand_seating_is_checked(teacher, classroom, students, seating, code):
    other = learning_services.create_classroom(teacher, "Other", "spa")
    outsider = learning_services.join_classroom(other.join_code, "Zed")
    with pytest.raises(AppError) as caught:
        lessons.start_lesson(teacher, classroom, "toy", None, {}, seating([s.id for s in students], outsider.id))
    assert caught.value.code == code


def test_hand_seating_respects_the_games_table_size(teacher, classroom, students):
    extra = [learning_services.join_classroom(classroom.join_code, name) for name in ("Dora", "Eli")]
    everyone = [s.id for s in students + extra]
    with pytest.raises(AppError) as caught:
        lessons.start_lesson(teacher, classroom, "toy", None, {}, [everyone])
    assert caught.value.code == "bad_table_size"
    assert "Table 1 has 5 players" in caught.value.message
    lesson = lessons.start_lesson(teacher, classroom, "toy", None, {}, [everyone[:4], everyone[4:]])
    assert [t.seats.count() for t in lesson.tables.order_by("number")] == [4, 1]


def test_too_few_students_for_the_game(teacher, classroom, students):
    with pytest.raises(AppError) as caught:
        lessons.split_into_tables([1], 2, 2, 8)
    assert caught.value.code == "too_few_students"


def test_table_size_outside_the_game_is_refused():
    with pytest.raises(AppError) as caught:
        lessons.split_into_tables([1, 2, 3], 9, 2, 8)
    assert caught.value.code == "bad_table_size"


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(min_value=1, max_value=40),
    low=st.integers(min_value=1, max_value=4),
    extra=st.integers(min_value=0, max_value=6),
    data=st.data(),
)
def test_auto_split_seats_everyone_once_within_the_games_limits(count, low, extra, data):
    high = low + extra
    size = data.draw(st.integers(min_value=low, max_value=high))
    ids = list(range(100, 100 + count))
    try:
        groups = lessons.split_into_tables(ids, size, low, high)
    except AppError as error:
        assert error.code in {"too_few_students", "bad_table_size"}
        assert count < low or count > high  # only a class that fits no single table is refused
        return
    assert sorted(i for g in groups for i in g) == ids
    sizes = [len(g) for g in groups]
    assert all(low <= n <= high for n in sizes)
    assert max(sizes) - min(sizes) <= 1
    if count // -(-count // size) >= low:  # tables of at most ``size`` can all be full enough
        assert max(sizes) <= size


# -- applying actions ------------------------------------------------------------------------------------------
def test_an_action_appends_a_move_and_saves_the_state(table):
    before = table.state
    move = play_first_card(table)
    table.refresh_from_db()
    assert (move.seq, table.version) == (1, 1)
    assert move.seat == 0
    assert move.kind == Move.Kind.ACTION
    assert move.events[0] == {"type": "played", "seat": 0, "card": before["hands"][0][0]}
    assert table.state["turn"] == 1
    assert table.state != before


def test_secret_fields_are_stored_uncensored_in_the_log(table):
    users = seated(table)
    move = moves.apply_action(table.id, users[0], {"type": "draw"})
    assert move.events[0]["_secret"] == {"card": Table.objects.get(pk=table.pk).state["hands"][0][-1]}


def test_a_rule_error_changes_nothing(table):
    users = seated(table)
    with pytest.raises(AppError) as caught:
        moves.apply_action(table.id, users[1], {"type": "play", "card": table.state["hands"][1][0]})
    assert caught.value.code == "not_your_turn"
    assert caught.value.message == "It is not your turn."
    fresh = Table.objects.get(pk=table.pk)
    assert (fresh.version, fresh.state) == (0, table.state)
    assert fresh.moves.count() == 1


@pytest.mark.parametrize("action", [[], "play", {"no": "type"}, {"type": 3}, {"type": "fly"}])
def test_malformed_actions_are_refused_clearly(table, action):
    with pytest.raises(AppError) as caught:
        moves.apply_action(table.id, seated(table)[0], action)
    assert caught.value.code == "bad_action"
    assert Table.objects.get(pk=table.pk).version == 0


def test_a_student_acts_only_in_their_own_seat(table, classroom):
    other = learning_services.join_classroom(classroom.join_code, "Outsider")
    with pytest.raises(AppError) as caught:
        moves.apply_action(table.id, other.user, {"type": "draw"})
    assert caught.value.code == "forbidden"


def test_a_student_removed_from_the_class_cannot_act_any_more(table, teacher):
    """Their user object (as a consumer holds it for the connection's life) still knows them as active."""
    user = seated(table)[to_act(table)]
    assert user.student.active
    card = table.state["hands"][to_act(table)][0]
    learning_services.remove_student(teacher, user.student.id)
    released = Table.objects.get(pk=table.pk).version  # leaving the class released their seat: one move
    assert released == 1
    with pytest.raises(AppError) as caught:
        moves.apply_action(table.id, user, {"type": "play", "card": card})
    assert caught.value.code == "forbidden"
    assert Table.objects.get(pk=table.pk).version == released


def test_another_teacher_cannot_act(table, other_teacher):
    with pytest.raises(AppError) as caught:
        moves.apply_action(table.id, other_teacher, {"type": "skip"})
    assert caught.value.code == "forbidden"


def test_the_teacher_acts_as_moderator(table, teacher):
    move = moves.apply_action(table.id, teacher, {"type": "skip"})
    assert move.seat is None
    assert move.actor == teacher
    assert Table.objects.get(pk=table.pk).state["turn"] == 1


def test_teacher_only_actions_are_refused_to_students(table):
    with pytest.raises(AppError) as caught:
        moves.apply_action(table.id, seated(table)[0], {"type": "skip"})
    assert caught.value.code == "teacher_only"


def test_the_lexicon_reaches_the_rules(table):
    users = seated(table)
    moves.apply_action(table.id, users[0], {"type": "say", "word": "λόγος"})
    with pytest.raises(AppError) as caught:
        moves.apply_action(table.id, users[0], {"type": "say", "word": "xyz"})
    assert caught.value.code == "not_a_word"


def test_a_move_that_checks_no_word_does_not_read_the_lexicon(table, bundled_lexicons, monkeypatch):
    monkeypatch.setattr(selectors, "word_list_for", REAL_WORD_LIST_FOR)
    Table.objects.filter(pk=table.pk).update(lexicon=bundled_lexicons["koine-greek"])
    users = seated(table)
    with CaptureQueriesContext(connection) as draw:
        moves.apply_action(table.id, users[0], {"type": "draw"})
    seat = to_act(Table.objects.get(pk=table.pk))
    with CaptureQueriesContext(connection) as say:
        moves.apply_action(table.id, users[seat], {"type": "say", "word": "λόγος"})
    assert not [q for q in draw.captured_queries if "lexicons_" in q["sql"]]
    assert [q for q in say.captured_queries if "lexicons_lexicon" in q["sql"]]
    with pytest.raises(AppError) as caught:
        moves.apply_action(table.id, users[to_act(Table.objects.get(pk=table.pk))], {"type": "say", "word": "xyz"})
    assert caught.value.code == "not_a_word"


def test_a_stale_version_is_refused(table):
    users = seated(table)
    moves.apply_action(table.id, users[0], {"type": "draw"}, expected_version=0)
    with pytest.raises(AppError) as caught:
        moves.apply_action(table.id, users[0], {"type": "draw"}, expected_version=0)
    assert caught.value.code == "stale"
    assert Table.objects.get(pk=table.pk).version == 1


def test_finishing_the_game_finishes_the_table(teacher, classroom, students):
    lesson = lessons.start_lesson(teacher, classroom, "toy", None, {"hand_size": 1}, [[students[0].id]])
    table = lesson.tables.get()
    play_first_card(table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    with pytest.raises(AppError) as caught:
        moves.apply_action(table.id, students[0].user, {"type": "draw"})
    assert caught.value.code == "finished"


# -- moderating ------------------------------------------------------------------------------------------------
def test_a_paused_table_refuses_actions_until_resumed(table, teacher):
    moderation.pause_table(teacher, table.id)
    with pytest.raises(AppError) as caught:
        play_first_card(table)
    assert caught.value.code == "paused"
    moderation.resume_table(teacher, table.id)
    assert play_first_card(table).seq == 1


def test_a_paused_or_ended_table_offers_no_action_to_anyone(table, teacher):
    def offered() -> list[list[str]]:
        table.refresh_from_db()
        return [[a["type"] for a in selectors.snapshot(table, seat)["view"]["actions"]] for seat in (0, 1, 2, None)]

    playing = offered()
    assert playing[to_act(table)]
    assert playing[3] == ["skip"]
    moderation.pause_table(teacher, table.id)
    assert offered() == [[], [], [], []]
    moderation.resume_table(teacher, table.id)
    assert offered() == playing
    moderation.end_table(teacher, table.id)
    assert offered() == [[], [], [], []]


def test_the_dashboard_row_names_the_players(table, teacher):
    play_first_card(table)
    table.refresh_from_db()
    row = selectors.dashboard_row(table)
    names = {p["seat"]: p["name"] for p in row["players"]}
    assert row["to_act"] == [names[to_act(table)]]
    assert row["last_move"].startswith(names[0])
    assert [p["score"] for p in row["players"]] == TOY.scores(table.state).total
    assert row["winners"] == []


def test_the_dashboard_row_links_to_the_table_page_under_the_sites_prefix(table):
    assert selectors.dashboard_row(table)["url"] == f"/games/tables/{table.id}/"
    set_script_prefix("/school/")  # served under a path of its own: the links follow
    try:
        assert selectors.dashboard_row(table)["url"] == f"/school/games/tables/{table.id}/"
    finally:
        set_script_prefix("/")
    assert selectors.dashboard_row(table)["url"] == f"/games/tables/{table.id}/"


def test_pause_resume_end_are_checked(table, teacher, other_teacher):
    with pytest.raises(AppError):
        moderation.resume_table(teacher, table.id)
    with pytest.raises(AppError) as caught:
        moderation.pause_table(other_teacher, table.id)
    assert caught.value.code == "forbidden"
    with pytest.raises(AppError) as caught:
        moderation.pause_table(seated(table)[0], table.id)
    assert caught.value.code == "forbidden"
    moderation.end_table(teacher, table.id)
    with pytest.raises(AppError):
        moderation.pause_table(teacher, table.id)
    with pytest.raises(AppError):
        moderation.end_table(teacher, table.id)


def test_removing_a_player_goes_through_the_rules_and_the_log(table, teacher):
    users = seated(table)
    move = moderation.remove_player(teacher, table.id, 0)
    table.refresh_from_db()
    assert move.kind == Move.Kind.REMOVAL
    assert move.action == {"type": "remove_player", "seat": 0}
    assert table.state["removed"] == [0]
    assert table.state["turn"] == 1
    assert table.seats.get(number=0).removed
    with pytest.raises(AppError) as caught:
        moves.apply_action(table.id, users[0], {"type": "draw"})
    assert caught.value.code == "forbidden"
    with pytest.raises(AppError):
        moderation.remove_player(teacher, table.id, 0)
    with pytest.raises(AppError):
        moderation.remove_player(teacher, table.id, 7)


# -- restart and replay ----------------------------------------------------------------------------------------
def play_a_while(table, teacher):
    users = seated(table)
    moves.apply_action(table.id, users[0], {"type": "draw"})
    table.refresh_from_db()
    play_first_card(table)
    moves.apply_action(table.id, teacher, {"type": "skip"})
    moderation.remove_player(teacher, table.id, 0)
    table.refresh_from_db()
    play_first_card(table)
    table.refresh_from_db()


def test_the_move_log_replays_to_the_saved_state(table, teacher):
    play_a_while(table, teacher)
    assert table.version == 5
    assert selectors.replayed_state(table) == table.state
    assert table.state["last_played_at"] == table.moves.get(seq=5).created.timestamp()


def test_states_and_logs_round_trip_through_json(table, teacher):
    play_a_while(table, teacher)
    assert json.loads(json.dumps(table.state)) == table.state
    for move in table.moves.all():
        assert json.loads(json.dumps([move.action, move.events])) == [move.action, move.events]


def test_a_game_resumes_from_the_database(table, teacher):
    play_a_while(table, teacher)
    reloaded = Table.objects.get(pk=table.pk)  # what a restarted server sees
    seq = reloaded.version
    move = play_first_card(reloaded)
    assert move.seq == seq + 1
    reloaded.refresh_from_db()
    assert selectors.replayed_state(reloaded) == reloaded.state


# -- races -----------------------------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_two_racing_actions_exactly_one_applies(toy_game, teacher, classroom, students):
    lesson = lessons.start_lesson(teacher, classroom, "toy", None, {}, [[s.id for s in students]])
    table = lesson.tables.get()
    user = seated(table)[0]
    card = table.state["hands"][0][0]
    barrier = threading.Barrier(2)
    results: list = []

    def act():
        barrier.wait()
        try:
            results.append(moves.apply_action(table.id, user, {"type": "play", "card": card}).seq)
        except AppError as error:
            results.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=act) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results, key=str) == sorted([1, "not_your_turn"], key=str)
    table.refresh_from_db()
    assert table.version == 1
    assert table.moves.count() == 2
