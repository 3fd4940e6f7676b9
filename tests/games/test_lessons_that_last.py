"""Lessons that last: games kept for the next lesson, late joiners seated, the projector, replays and turn clocks."""

import random
import re
import threading
from datetime import UTC, datetime, timedelta

import pytest
import zxingcpp
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from games import screen, selectors
from games.engine import AppError, Context, Game
from games.engine.turns import active_seats
from games.models import Lesson, Move, Seat, Table
from games.rules import GAMES
from games.services import lessons, moderation, moves
from learning import services as learning_services
from tests.games.conftest import seated
from tests.games.contract.cases import case_for
from tests.games.contract.harness import new_played, piece_ids, step

CORTAS = GAMES["palabras_cortas"]
GRABBLE = GAMES["grabble"]


def join(classroom, *names):
    return [learning_services.join_classroom(classroom.join_code, name) for name in names]


# -- carrying games over ---------------------------------------------------------------------------------------------
@pytest.fixture
def grabble_lesson(teacher, classroom):
    students = join(classroom, "Ana", "Ben", "Cleo")
    return lessons.start_lesson(teacher, classroom, "grabble", None, {}, [[s.id for s in students]]), students


def test_ending_a_lesson_says_what_happens_to_each_unfinished_table(grabble_lesson):
    lesson, _ = grabble_lesson
    table = lesson.tables.get()
    choices = {c["value"]: c["label"] for c in lessons.end_choices(table)}
    assert set(choices) == {lessons.KEEP, lessons.RULES_END, lessons.FINISH}
    assert "next lesson" in choices[lessons.KEEP]
    assert "quiz" in choices[lessons.RULES_END]
    assert "Ana 0" in choices[lessons.FINISH]
    assert "will not happen" in choices[lessons.FINISH]  # Grabble's provisional play scores: the quiz never runs


def test_a_kept_game_resumes_in_the_next_lesson_with_the_same_seats_and_state(teacher, classroom, grabble_lesson):
    lesson, students = grabble_lesson
    table = lesson.tables.get()
    late = join(classroom, "Dora", "Eli")  # they were not at the kept table: the next lesson seats them anew
    state, version = table.state, table.version
    lessons.end_lesson(teacher, lesson.id, {table.id: lessons.KEEP})
    table.refresh_from_db()
    assert table.status == Table.Status.KEPT
    with pytest.raises(AppError) as refused:
        moves.apply_action(table.id, seated(table)[table.state["turn"]], {"type": "pass"})
    assert refused.value.code == moves.PAUSED

    following = lessons.start_lesson(teacher, classroom, "grabble", None, {}, 2)
    table.refresh_from_db()
    assert (table.lesson_id, table.carried_from_id, table.status) == (following.id, lesson.id, Table.Status.PLAYING)
    assert (table.state, table.version, table.number) == (state, version, 1)
    assert [s.student_id for s in table.seats.order_by("number")] == [s.id for s in students]
    new = following.tables.exclude(pk=table.pk).get()
    assert sorted(new.seats.values_list("student_id", flat=True)) == sorted(s.id for s in late)
    assert lesson.carried_tables.get() == table


def test_the_rules_end_sends_grabble_to_its_quiz_in_the_next_lesson(teacher, classroom, grabble_lesson):
    lesson, _ = grabble_lesson
    table = lesson.tables.get()
    lessons.end_lesson(teacher, lesson.id, {table.id: lessons.RULES_END})
    table.refresh_from_db()
    assert table.status == Table.Status.KEPT
    assert GRABBLE.status(table.state).phase != "play"
    assert table.moves.last().action == {"type": "end_play"}
    lessons.start_lesson(teacher, classroom, "grabble", None, {}, 2)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert selectors.replayed_state(table) == table.state


def test_ending_without_a_plan_finishes_every_game_as_before(teacher, grabble_lesson):
    lesson, _ = grabble_lesson
    lessons.end_lesson(teacher, lesson.id)
    assert lesson.tables.get().status == Table.Status.FINISHED


# -- late joiners and moving students --------------------------------------------------------------------------------
def test_palabras_cortas_seats_a_new_player_at_the_next_hand():
    state, _ = CORTAS.new_game(2, {}, 3)
    assert CORTAS.can_seat(state, None)
    assert not CORTAS.can_seat(state, 0)
    state, events, seat = CORTAS.add_player(state, None, Context())
    assert (seat, state["players"], state["waiting"]) == (2, 3, [2])
    assert events[0]["type"] == "player_joined"
    assert seat not in active_seats(state)
    assert CORTAS.view(state, seat)["body"]["hand"] == []
    state["hand_number"] = 1
    CORTAS._deal(state)
    assert seat in active_seats(state)
    assert state["waiting"] == []
    assert len(state["hands"][seat]) == len(state["hands"][0]) > 0


def test_grabble_lets_a_new_player_take_over_a_removed_seat():
    state, _ = GRABBLE.new_game(3, {}, 5)
    assert not GRABBLE.can_seat(state, None)
    state, _ = GRABBLE.remove_player(state, 2, Context())
    assert GRABBLE.can_seat(state, 2)
    state, _, seat = GRABBLE.add_player(state, 2, Context())
    assert seat == 2
    assert 2 in active_seats(state)
    assert len(state["racks"][2]) == len(state["racks"][0]) > 0


def test_a_game_without_seating_refuses_by_default():
    state, _ = GAMES["pala"].new_game(GAMES["pala"].min_players, {}, 1)
    with pytest.raises(AppError) as refused:
        GAMES["pala"].add_player(state, None, Context())
    assert refused.value.code == "cannot_seat"


def test_a_late_joiner_waits_and_is_seated_where_the_rules_allow(teacher, classroom):
    students = join(classroom, "Ana", "Ben")
    lesson = lessons.start_lesson(teacher, classroom, "palabras_cortas", None, {}, [[s.id for s in students]])
    table = lesson.tables.get()
    (late,) = join(classroom, "Cleo")
    assert [s.id for s in lessons.waiting_students(lesson)] == [late.id]
    assert selectors.dashboard_row(table)["seat_options"] == [{"seat": None, "label": "in a new seat"}]
    move = lessons.seat_student(teacher, table.id, late.id, None)
    assert move.kind == Move.Kind.SEATED
    table.refresh_from_db()
    assert table.seats.get(student=late).number == 2
    assert lessons.waiting_students(lesson) == []
    assert selectors.replayed_state(table) == table.state
    assert selectors.access(late.user, table).seat == 2


def test_the_teacher_gives_an_absent_players_seat_to_a_waiting_student(teacher, classroom, grabble_lesson):
    lesson, students = grabble_lesson
    table = lesson.tables.get()
    (sub,) = join(classroom, "Dora")
    state = table.state
    lessons.replace_student(teacher, table.id, 1, sub.id)
    table.refresh_from_db()
    assert table.state == state
    assert table.seats.get(number=1).student == sub
    assert students[1].id in {s.id for s in lessons.waiting_students(lesson)}


def test_moving_a_student_takes_them_out_of_one_game_and_seats_them_at_another(teacher, classroom):
    students = join(classroom, "Ana", "Ben", "Cleo", "Dora", "Eli")
    lesson = lessons.start_lesson(
        teacher, classroom, "palabras_cortas", None, {}, [[s.id for s in students[:3]], [s.id for s in students[3:]]]
    )
    first, second = lesson.tables.order_by("number")
    lessons.move_student(teacher, students[0].id, second.id, None)
    assert first.seats.get(student=students[0]).removed
    assert second.seats.get(student=students[0]).number == 2


# -- the turn clock --------------------------------------------------------------------------------------------------
@pytest.fixture
def clocked(teacher, classroom):
    students = join(classroom, "Ana", "Ben")
    lesson = lessons.start_lesson(
        teacher, classroom, "grabble", None, {"clock_seconds": 30}, [[s.id for s in students]]
    )
    table = lesson.tables.get()
    assert table.state["clock_seconds"] == 30
    assert table.turn_deadline is not None
    return table


def test_a_timeout_before_the_deadline_is_refused(clocked):
    with pytest.raises(AppError) as refused:
        moves.apply_action(clocked.id, seated(clocked)[0], {"type": "timeout", "seq": 0})
    assert refused.value.code == "clock_running"


def test_pausing_every_table_stops_the_clock_and_resuming_gives_back_the_time_left(teacher, clocked):
    moderation.pause_all(teacher, clocked.lesson_id)
    clocked.refresh_from_db()
    assert clocked.turn_deadline is None
    assert 0 < clocked.clock_left <= 30
    moderation.resume_all(teacher, clocked.lesson_id)
    clocked.refresh_from_db()
    assert clocked.clock_left is None
    assert clocked.turn_deadline > timezone.now()
    assert selectors.table_info(clocked)["clock"]["seconds"] == 30


@pytest.mark.django_db(transaction=True)
def test_a_clock_that_runs_out_passes_the_turn_exactly_once_even_when_the_player_acts_at_once(teacher, classroom):
    students = join(classroom, "Ana", "Ben")
    lesson = lessons.start_lesson(teacher, classroom, "grabble", None, {"clock_seconds": 5}, [[s.id for s in students]])
    table = lesson.tables.get()
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    users = seated(table)
    on_turn = table.state["turn"]
    other = users[1 - on_turn]
    senders = [
        (users[on_turn], {"type": "pass"}),
        (other, {"type": "timeout", "seq": 0}),
        (teacher, {"type": "timeout", "seq": 0}),
        (users[on_turn], {"type": "timeout", "seq": 0}),
    ]
    barrier = threading.Barrier(len(senders))
    results: list = []

    def act(user, action):
        barrier.wait()
        try:
            results.append(moves.apply_action(table.id, user, action).action["type"])
        except AppError as error:
            results.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=act, args=sender) for sender in senders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    table.refresh_from_db()
    assert table.version == 1, results
    assert len([r for r in results if r in ("pass", "timeout")]) == 1, results
    assert table.state["turn"] == 1 - on_turn  # the turn passed once
    assert table.turn_deadline > timezone.now()  # the next turn has its full time
    assert selectors.replayed_state(table) == table.state


def test_a_clock_that_runs_out_where_the_rules_have_no_pass_alerts_the_teacher(teacher, classroom):
    students = join(classroom, "Ana", "Ben")
    lesson = lessons.start_lesson(
        teacher, classroom, "palabras_cortas", None, {"clock_seconds": 10}, [[s.id for s in students]]
    )
    table = lesson.tables.get()
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(AppError) as refused:
        moves.apply_action(table.id, seated(table)[0], {"type": "timeout", "seq": 0})
    assert refused.value.code == "cannot_time_out"
    table.refresh_from_db()
    assert table.timed_out
    assert table.turn_deadline is None
    assert table.version == 0
    assert selectors.dashboard_row(table)["clock"]["timed_out"]


def test_the_two_minutes_notice_goes_to_every_open_table(teacher, grabble_lesson, django_capture_on_commit_callbacks):
    lesson, _ = grabble_lesson
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert moderation.notify_all(teacher, lesson.id, "two_minutes") == 1
    assert len(callbacks) == 1


# -- the projector ---------------------------------------------------------------------------------------------------
def decode_segno_svg(svg: str) -> str:
    """Read the QR code back from the SVG the page shows (segno draws each row's dark runs as ``h`` segments of a
    path), rasterise it and let zxing decode it."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    path = re.search(r' d="([^"]+)"', svg).group(1)
    scale = 8
    pixels = bytearray([255]) * (size * scale) ** 2
    x = y = 0.0
    for command, numbers in re.findall(r"([MmHhVv])([-\d. ]+)", path):
        values = [float(n) for n in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        elif command in "hH":
            end = x + values[0] if command == "h" else values[0]
            row = int(y)
            for col in range(int(x), int(end)):
                for dy in range(scale):
                    start = (row * scale + dy) * size * scale + col * scale
                    pixels[start : start + scale] = bytes(scale)
            x = end
    image = memoryview(bytes(pixels)).cast("B", (size * scale, size * scale))
    found = zxingcpp.read_barcode(image)
    assert found is not None, "no QR code found"
    return found.text


def test_the_projector_qr_code_encodes_the_join_address(client, teacher, classroom):
    client.force_login(teacher)
    response = client.get(reverse("games:projector", args=[classroom.id]))
    assert response.status_code == 200
    page = response.content.decode()
    svg = page[page.index("<svg") : page.index("</svg>") + 6]
    address = f"http://testserver/join/?code={classroom.join_code}"
    assert address in page
    assert decode_segno_svg(svg) == address


def test_the_projector_shows_the_roster_then_a_leaderboard_that_follows_the_scores(teacher, classroom, toy_game):
    students = join(classroom, "Ana", "Ben")
    assert screen.screen_data(classroom) == {"roster": ["Ana", "Ben"], "mode": "join", "lesson": None}
    lesson = lessons.start_lesson(teacher, classroom, "toy", None, {}, [[s.id for s in students]])
    table = lesson.tables.get()
    data = screen.screen_data(classroom)
    assert data["mode"] == "lesson"
    assert [r["score"] for r in data["leaderboard"]] == [0, 0]
    state = table.state
    card = next(c for c in state["stock"] if c % 10)  # one that scores, in Ana's hand whatever the deal
    state["stock"].remove(card)
    state["hands"][0].append(card)
    table.save(update_fields=["state"])
    moves.apply_action(table.id, seated(table)[0], {"type": "play", "card": card})
    board = screen.screen_data(classroom)["leaderboard"]
    assert (board[0]["name"], board[0]["score"], board[0]["rank"]) == ("Ana", card % 10, 1)
    assert board[1]["rank"] == 2
    lessons.end_lesson(teacher, lesson.id)
    data = screen.screen_data(classroom)
    assert data["mode"] == "podium"
    assert data["podium"][0]["name"] == "Ana"
    assert set(data["words"]) == {"most_played", "highest_scoring", "rarest"}


def test_the_projector_is_the_teachers_only(client, classroom, other_teacher):
    client.force_login(other_teacher)
    assert client.get(reverse("games:projector", args=[classroom.id])).status_code == 404


# -- replays ---------------------------------------------------------------------------------------------------------
def played_into_a_table(rules: Game, classroom, teacher, seed: int) -> tuple[Table, list[dict]]:
    """A random game of ``rules`` played from the envelope's actions (as the contract suite plays them), stored as a
    table with its move log; returns the table and the state after every entry of the log."""
    case = case_for(rules.slug)
    rng = random.Random(seed)
    played = new_played(rules, case, rng)
    ctx = Context(case.lexicon, 1_000_000.0)
    states = [played.state]
    for _ in range(60):
        if not step(played, case, rng, ctx):
            break
        if len(played.log) == len(states):
            states.append(played.state)
        if rules.slug == "palabras_cortas" and len(states) == 5 and rules.can_seat(played.state, None):
            state, _, seat = rules.add_player(played.state, None, ctx)
            played.state, played.players = state, state["players"]
            played.score_events.append(0)
            played.log.append(("seated", None, {"type": "add_player", "seat": None}))
            states.append(state)
    students = join(classroom, *[f"{rules.slug[:10]} {seed} {n}" for n in range(played.state["players"])])
    lesson = Lesson.objects.filter(classroom=classroom, ended__isnull=True).first() or Lesson.objects.create(
        classroom=classroom, game=rules.slug, options={}, started_by=teacher
    )
    finished = rules.status(played.state).finished
    table = Table.objects.create(
        lesson=lesson,
        number=lesson.tables.count() + 1,
        game=rules.slug,
        options=played.options,
        seed=played.seed,
        state=played.state,
        version=len(played.log),
        status=Table.Status.FINISHED if finished else Table.Status.PLAYING,
    )
    Seat.objects.bulk_create([Seat(table=table, number=n, student=s) for n, s in enumerate(students)])
    when = datetime.fromtimestamp(ctx.now, UTC)
    Move.objects.create(
        table=table, seq=0, kind=Move.Kind.START, action={"players": _start_players(played)}, created=when
    )
    kinds = {"remove": Move.Kind.REMOVAL, "seated": Move.Kind.SEATED, "action": Move.Kind.ACTION}
    for seq, (kind, seat, action) in enumerate(played.log, start=1):
        entry = {"seat": seat} if kind == "remove" else action
        Move.objects.create(
            table=table,
            seq=seq,
            kind=kinds[kind],
            seat=None if kind != "action" else seat,
            action=entry,
            created=when,
        )
    return table, states


def _start_players(played) -> int:
    added = sum(1 for kind, _, _ in played.log if kind == "seated")
    return played.players - added


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_replay_equals_the_stored_state_at_every_step_and_hides_what_a_player_could_not_see(
    slug, teacher, classroom, monkeypatch
):
    rules = GAMES[slug]
    monkeypatch.setattr(selectors, "word_list_for", lambda lexicon_id, lexicon=None: case_for(slug).lexicon)
    table, states = played_into_a_table(rules, classroom, teacher, seed=11)
    assert len(states) > 3, "the random game made some moves"
    assert selectors.replay_states(table) == states
    for seq, state in enumerate(states):
        if rules.status(state).finished:
            break
        for seat in range(state["players"]):
            if table.status == Table.Status.FINISHED:
                continue  # after the game its players see every seat; during it, only their own
            frame = selectors.replay_step(table, selectors.Access(seat=seat), seq, seat)
            assert frame["step"] == seq
            assert frame["view"]["actions"] == []
            shown = set(piece_ids(rules, frame["view"]["body"]))
            assert shown <= set(rules.visible_pieces(state, seat)), f"seat {seat} sees hidden pieces at step {seq}"
    teacher_frame = selectors.replay_step(table, selectors.Access(seat=None), len(states) - 1, 0)
    assert teacher_frame["view"] == {**rules.view(states[-1], 0), "actions": []}


def test_a_player_sees_only_their_own_seat_during_play_and_every_seat_once_it_is_over(teacher, grabble_lesson):
    lesson, _ = grabble_lesson
    table = lesson.tables.get()
    me = selectors.Access(seat=0)
    assert selectors.replay_seats(table, me) == [0]
    with pytest.raises(AppError):
        selectors.replay_step(table, me, 0, 1)
    with pytest.raises(AppError):
        selectors.replay_step(table, me, 0, None)
    assert selectors.replay_seats(table, selectors.Access(seat=None)) == [None, 0, 1, 2]
    lessons.end_lesson(teacher, lesson.id)
    table.refresh_from_db()
    assert selectors.replay_seats(table, me) == [0, 1, 2, None]
    assert "rack" in str(selectors.replay_step(table, me, 0, 1)["view"]["body"])


def test_the_replay_and_archive_pages(client, teacher, classroom, grabble_lesson):
    lesson, students = grabble_lesson
    table = lesson.tables.get()
    client.force_login(students[0].user)
    assert client.get(reverse("games:replay", args=[table.id])).status_code == 200
    data = client.get(reverse("games:replay_data", args=[table.id]), {"step": 0, "seat": 0}).json()
    assert data["view"]["seat"] == 0
    assert data["last"] == 0
    assert client.get(reverse("games:replay_data", args=[table.id]), {"step": 0, "seat": 1}).status_code == 403
    assert client.get(reverse("games:archive", args=[classroom.id])).status_code == 403
    client.force_login(teacher)
    page = client.get(reverse("games:archive", args=[classroom.id])).content.decode()
    assert reverse("games:replay", args=[table.id]) in page
    end_page = client.get(reverse("games:end_lesson", args=[lesson.id])).content.decode()
    assert f'name="table-{table.id}"' in end_page
    assert "quiz" in end_page
    response = client.post(reverse("games:end_lesson", args=[lesson.id]), {f"table-{table.id}": "keep"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.KEPT
