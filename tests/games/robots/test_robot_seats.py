"""Robots at live tables: they play through the move path (logged, replayed, one action per transaction, only their
own view), never while the table is paused, never twice for one version; teachers seat them; students practise."""

import random
from collections import deque
from datetime import timedelta

import pytest

from games import robots as brains
from games import selectors
from games.engine import AppError
from games.models import Move, Seat, Table
from games.services import lessons, moderation, moves, practice
from games.services import robots as robot_service
from learning import services as learning_services
from learning.models import Classroom, Encounter
from tests.games.contract.word_cards import GENEROUS

pytestmark = pytest.mark.django_db(transaction=True)
STUDENT_BRAIN = brains.decide  # the students of these tests play with a robot's choices (sent as themselves)


@pytest.fixture(autouse=True)
def _no_pending():
    robot_service.PENDING.clear()
    yield
    robot_service.PENDING.clear()


@pytest.fixture
def three(classroom):
    return [learning_services.join_classroom(classroom.join_code, name) for name in ("Ana", "Βασίλης", "Chloé")]


def _play_humans(table_id: int, steps: int = 4000) -> Table:
    """Students play their seats with a steady robot's choices (sent as themselves); robots play theirs."""
    rng = random.Random(3)
    for _ in range(steps):
        robot_service.run_pending()
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return table
        rules = selectors.rules_of(table.game)
        for seat in table.seats.filter(student__isnull=False, removed=False).select_related("student__user"):
            view = rules.view(table.state, seat.number)
            for action in STUDENT_BRAIN(view, selectors.word_list_for(table.lexicon_id), "steady", rng):
                try:
                    moves.apply_action(table_id, seat.student.user, action, expected_version=table.version)
                except AppError:
                    continue
                break
            else:
                continue
            break
        else:
            if not robot_service.PENDING:
                return Table.objects.get(pk=table_id)
    return Table.objects.get(pk=table_id)


def test_uneven_tables_are_filled_with_robots_who_play_through_the_move_path(teacher, classroom, three):
    lesson = lessons.start_lesson(teacher, classroom, "pablo", None, {}, 4, robots="steady")
    table = lesson.tables.get()
    seats = list(table.seats.order_by("number"))
    assert [bool(s.robot) for s in seats] == [False, False, False, True]
    assert selectors.players(table)[3]["name"] == "Steady robot"
    table = _play_humans(table.id)
    robot_moves = Move.objects.filter(table=table, seat=3, kind=Move.Kind.ACTION)
    assert robot_moves.exists()
    assert all(m.actor_id is None for m in robot_moves)
    assert selectors.replayed_state(table) == table.state


def test_a_robot_is_passed_only_its_own_view(teacher, classroom, three, monkeypatch):
    lesson = lessons.start_lesson(teacher, classroom, "pablo", None, {}, 4, robots="strong")
    table = lesson.tables.get()
    given = []
    real = brains.decide

    def spy(view, words, level, rng):
        current = Table.objects.get(pk=table.id)
        given.append((view, selectors.rules_of("pablo").view(current.state, view["seat"])))
        return real(view, words, level, rng)

    monkeypatch.setattr(brains, "decide", spy)
    _play_humans(table.id, steps=60)
    assert given
    for view, expected in given:
        assert view["seat"] == 3
        assert view == expected  # exactly the robot seat's envelope: no state, no other hand


def test_a_paused_tables_robots_do_not_act_and_resume_with_it(teacher, classroom):
    learning_services.join_classroom(classroom.join_code, "Ana")
    lesson = lessons.start_lesson(teacher, classroom, "pablo", None, {}, 2, robots="beginner")
    table = lesson.tables.get()
    robot_service.PENDING.clear()
    moderation.pause_table(teacher, table.id)
    robot_service.wake(table.id, table.version)
    assert robot_service.run_pending() == 0
    assert Table.objects.get(pk=table.id).version == 0
    moderation.resume_table(teacher, table.id)  # resuming wakes them
    assert robot_service.PENDING
    assert robot_service.run_pending() > 0  # the robot's first look at its cards, and on


def test_a_robot_turn_scheduled_twice_acts_once(teacher, classroom):
    learning_services.join_classroom(classroom.join_code, "Ana")
    lesson = lessons.start_lesson(teacher, classroom, "pablo", None, {}, 3, robots="steady")
    table = lesson.tables.get()
    robot_service.PENDING.clear()
    robot = Seat.objects.filter(table=table).exclude(robot="").first()
    rules = selectors.rules_of("pablo")
    assert rules.view(table.state, robot.number)["actions"], "a robot has something to do at the deal (first looks)"
    assert robot_service.robot_turn(table.id, 0)  # the first acts
    assert not robot_service.robot_turn(table.id, 0)  # the duplicate sees the table moved on
    assert Move.objects.filter(table=table, kind=Move.Kind.ACTION).count() == 1


def test_a_stale_robot_move_is_refused(teacher, classroom):
    learning_services.join_classroom(classroom.join_code, "Ana")
    table = lessons.start_lesson(teacher, classroom, "pablo", None, {}, 2, robots="steady").tables.get()
    with pytest.raises(AppError) as refused:
        moves.apply_robot_action(table.id, 1, {"type": "ready"}, expected_version=5)
    assert refused.value.code == moves.STALE
    with pytest.raises(AppError) as refused:
        moves.apply_robot_action(table.id, 0, {"type": "ready"}, expected_version=0)
    assert refused.value.code == moves.FORBIDDEN  # seat 0 is a student's


def test_the_teacher_puts_a_robot_in_an_absent_students_seat(teacher, classroom, three):
    table = lessons.start_lesson(teacher, classroom, "pablo", None, {}, 3).tables.get()
    robot_service.seat_robot(teacher, table.id, 1, "strong")
    seat = Seat.objects.get(table=table, number=1)
    assert seat.robot == "strong"
    assert seat.student is None
    assert selectors.access(three[1].user, table) is None or selectors.access(three[1].user, table).seat != 1
    assert robot_service.PENDING
    moderation.remove_player(teacher, table.id, 2)
    with pytest.raises(AppError) as refused:
        robot_service.seat_robot(teacher, table.id, 2, "strong")
    assert refused.value.code == "seat_removed"


def test_a_student_practises_against_robots_and_resumes(classroom):
    ana = learning_services.join_classroom(classroom.join_code, "Ana")
    table = practice.start_practice(ana.user, "pablo", robot_count=2, level="beginner")
    assert table.lesson.practice
    assert selectors.running_lesson(classroom) is None  # a practice game is not the class's lesson
    assert [p["robot"] for p in selectors.players(table)] == ["", "beginner", "beginner"]
    assert practice.practice_tables(ana) == [table]
    finished = _play_humans(table.id)
    assert finished.status == Table.Status.FINISHED
    assert practice.class_practice(classroom)[0]["games"] == 1


def test_practice_words_are_marked_and_show_me_a_move(teacher, monkeypatch):
    monkeypatch.setattr(selectors, "word_list_for", lambda lexicon_id, lexicon=None: GENEROUS)
    spanish = learning_services.create_classroom(teacher, "Español", Classroom.Language.SPANISH)
    ana = learning_services.join_classroom(spanish.join_code, "Ana")
    table = practice.start_practice(ana.user, "palabras_cortas_solitario")
    robot_service.show_move(ana.user, table.id)  # played for her, as her move
    move = Move.objects.filter(table=table, kind=Move.Kind.ACTION).get()
    assert move.actor == ana.user
    assert move.action["type"] == "word"
    encounters = Encounter.objects.filter(student=ana)
    assert encounters.exists()
    assert all(e.practice for e in encounters)
    practice.end_practice(ana.user, table.id)
    assert Table.objects.get(pk=table.id).status == Table.Status.FINISHED


def test_show_me_a_move_decides_again_when_a_robot_moved_first(classroom, monkeypatch):
    """The table's robot acts while "Show me a move" is deciding (its first look at its cards, on its own timer):
    the shown move, decided on the table as it was, is stale; it is decided again on the new table and played,
    not refused with "someone moved first"."""
    ana = learning_services.join_classroom(classroom.join_code, "Ana")
    table = practice.start_practice(ana.user, "pablo", robot_count=1)
    assert robot_service.PENDING  # the robot's first look is due
    apply_action = moves.apply_action
    sent: list[int | None] = []

    def robot_first(table_id, user, action, expected_version=None):
        if not sent:
            assert robot_service.run_pending() > 0  # the robot looks (and is ready) before this move lands
        sent.append(expected_version)
        return apply_action(table_id, user, action, expected_version=expected_version)

    monkeypatch.setattr(moves, "apply_action", robot_first)
    move = robot_service.show_move(ana.user, table.id)
    assert move.actor == ana.user
    assert move.seat == 0
    assert sent[0] == 0  # decided on the table before the robot's look: stale
    assert sent[-1] == Table.objects.get(pk=table.id).version - 1  # decided again on the table as it then was
    assert Move.objects.filter(table=table, seat=1, actor__isnull=True).exists()


def test_practice_is_for_the_class_languages_games(classroom):
    ana = learning_services.join_classroom(classroom.join_code, "Ana")
    with pytest.raises(AppError):
        practice.start_practice(ana.user, "palabra")  # English, in a Greek class
    with pytest.raises(AppError):
        practice.start_practice(ana.user, "pablo", robot_count=9)


def test_the_start_form_and_the_dashboard_control(client, teacher, classroom, three):
    client.force_login(teacher)
    url = f"/games/classes/{classroom.id}/start/"
    page = client.get(url)
    assert b"Steady robot" in page.content
    response = client.post(url, {"game": "pablo", "seating": "auto", "table_size": 4, "robots": "strong"})
    assert response.status_code == 302
    table = Table.objects.get(lesson__classroom=classroom)
    assert [s.robot for s in table.seats.order_by("number")] == ["", "", "", "strong"]
    response = client.post(f"/games/tables/{table.id}/seats/0/robot/", {"level": "beginner"})
    assert response.status_code == 302
    assert Seat.objects.get(table=table, number=0).robot == "beginner"


def test_the_class_page_offers_practice_and_the_table_shows_a_move(client, teacher, monkeypatch):
    monkeypatch.setattr(selectors, "word_list_for", lambda lexicon_id, lexicon=None: GENEROUS)
    spanish = learning_services.create_classroom(teacher, "Español", Classroom.Language.SPANISH)
    ana = learning_services.join_classroom(spanish.join_code, "Ana")
    client.force_login(ana.user)
    page = client.get(f"/classes/{spanish.id}/")
    assert b"Practice against robots" in page.content
    response = client.post("/games/practice/", {"game": "palabras_cortas_solitario", "robots": 1, "level": "steady"})
    table = Table.objects.get(lesson__practice=True)
    assert response.url == f"/games/tables/{table.id}/"
    assert b"Show me a move" in client.get(response.url).content
    client.post(f"/games/tables/{table.id}/show-move/")
    assert Table.objects.get(pk=table.id).version == 1
    assert b"Resume" in client.get(f"/classes/{spanish.id}/").content
    client.force_login(teacher)
    assert b"Practice against robots" in client.get(f"/reports/classes/{spanish.id}/").content


def test_a_robot_that_died_mid_thought_acts_when_the_table_is_next_read(teacher, classroom, client):
    ana = learning_services.join_classroom(classroom.join_code, "Ana")
    table = practice.start_practice(ana.user, "pablo", robot_count=1, level="steady")
    robot_service.PENDING.clear()  # the scheduled turn was lost with its process
    robot_service.nudge(Table.objects.get(pk=table.id))
    assert not robot_service.PENDING  # too soon: it may still be thinking
    Table.objects.filter(pk=table.id).update(updated=table.updated - timedelta(minutes=1))
    client.force_login(ana.user)
    client.get(f"/games/tables/{table.id}/")
    assert deque([(table.id, 0)]) == robot_service.PENDING
    assert robot_service.run_pending() >= 1


def test_a_robot_takes_a_removed_players_seat_where_the_rules_allow(teacher, classroom, three, monkeypatch):
    from tests.games.contract.grabble import LEXICON

    monkeypatch.setattr(selectors, "word_list_for", lambda lexicon_id, lexicon=None: LEXICON)
    table = lessons.start_lesson(teacher, classroom, "grabble", None, {}, 3).tables.get()
    moderation.remove_player(teacher, table.id, 2)
    robot_service.PENDING.clear()
    robot_service.seat_robot(teacher, table.id, 2, "strong")
    seat = Seat.objects.get(table=table, number=2)
    assert seat.robot == "strong"
    assert not seat.removed
    table = Table.objects.get(pk=table.id)
    assert 2 not in table.state.get("removed", [])
    assert Move.objects.filter(table=table, kind=Move.Kind.SEATED).exists()
    assert selectors.replayed_state(table) == table.state
    assert robot_service.PENDING  # it plays when its turn comes
