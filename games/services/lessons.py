"""The teacher's lesson: starting one (seating the class at tables) and ending it."""

import secrets
from collections.abc import Sequence
from datetime import timedelta
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from config import transport
from games import selectors
from games.engine import AppError, Context, Event, Game
from games.models import Lesson, Move, Seat, Table
from games.services import moderation, moves, table_rows
from games.services import robots as robot_service
from games.services.moves import FINISHED, FORBIDDEN
from games.services.table_rows import NOT_FOUND
from learning import services as learning_services
from learning.models import Classroom, Student, User
from lexicons.models import Lexicon

Seating = int | Sequence[Sequence[int]]


def start_lesson(
    teacher: User,
    classroom: Classroom,
    game: str,
    lexicon: Lexicon | None,
    options: dict[str, Any] | None,
    seating: Seating,
    robots: str = "",
) -> Lesson:
    """Start ``game`` for the class: tables filled by ``seating`` — a table size (the active students are shuffled
    and split as evenly as the game allows) or a list of tables, each a list of student ids. Students on the class
    page are then sent to their own table. ``robots``: a robot level to fill uneven tables with (every table gets
    as many seats as the fullest, or as the table size; a class smaller than the game's minimum plays with robots)."""
    if not teacher.is_teacher or classroom.teacher_id != teacher.id:
        raise AppError(FORBIDDEN, "Only the class's teacher can start a lesson.")
    rules = selectors.rules_of(game)
    options = rules.clean_options(options)
    _check_lexicon(teacher, classroom, rules, lexicon)
    with transaction.atomic():
        Classroom.objects.select_for_update().filter(pk=classroom.pk).first()
        if Lesson.objects.filter(classroom=classroom, ended__isnull=True, practice=False).exists():
            raise AppError("lesson_running", "A lesson is already running in this class: end it first.")
        kept = list(
            Table.objects.select_for_update()
            .filter(lesson__classroom=classroom, status=Table.Status.KEPT)
            .order_by("lesson__created", "number")
        )
        at_kept = set(Seat.objects.filter(table__in=kept, removed=False).values_list("student_id", flat=True))
        students = {s.id: s for s in classroom.students.filter(active=True) if s.id not in at_kept}
        groups: list[list[int]]
        table_size: int | None
        if isinstance(seating, int):
            if kept and len(students) < rules.min_players:
                groups = []  # everyone plays on at a kept table; anyone else waits to be seated
            elif robots and 0 < len(students) < rules.min_players:
                groups = [list(students)]  # robots make up the numbers
            else:
                groups = split_into_tables(list(students), seating, rules.min_players, rules.max_players)
            table_size = seating
        else:
            groups = _hand_seating(seating, students, rules, allow_short=bool(robots))
            table_size = None
        full = max([table_size or 0, rules.min_players, *(len(g) for g in groups)]) if robots else 0
        try:
            lesson = Lesson.objects.create(
                classroom=classroom,
                game=game,
                lexicon=lexicon,
                options=options,
                table_size=table_size,
                started_by=teacher,
            )
        except IntegrityError:
            raise AppError("lesson_running", "A lesson is already running in this class: end it first.") from None
        urls = {}
        for number, table in enumerate(kept, start=1):
            _resume_kept(table, lesson, number)
            for seat in table.seats.filter(removed=False).select_related("student"):
                if seat.student is not None:  # robots are not sent anywhere
                    urls[str(seat.student.user_id)] = reverse("games:table", args=[table.id])
        for number, ids in enumerate(groups, start=len(kept) + 1):
            extra = min(full, rules.max_players) - len(ids) if robots else 0
            table = _new_table(lesson, number, rules, [students[i] for i in ids], robots=max(0, extra), level=robots)
            for i in ids:
                urls[str(students[i].user_id)] = reverse("games:table", args=[table.id])
    message = {"type": "lesson.started", "urls": urls}
    transaction.on_commit(lambda: transport.group_send(transport.classroom_group(classroom.pk), message))
    return lesson


def _resume_kept(table: Table, lesson: Lesson, number: int) -> None:
    """A game kept at the end of an earlier lesson resumes in ``lesson``: same seats, same state, its clock going
    on with the time the turn had left."""
    table.carried_from_id = table.lesson_id
    table.lesson = lesson
    table.number = number
    table.save(update_fields=["carried_from", "lesson", "number", "updated"])
    moderation.set_status(table, Table.Status.PLAYING)


def _check_lexicon(teacher: User, classroom: Classroom, rules: Game, lexicon: Lexicon | None) -> None:
    if lexicon is None:
        return
    if lexicon.owner_id not in (None, teacher.id):
        raise AppError(FORBIDDEN, "That lexicon belongs to another teacher.")
    if not lexicon.is_usable:
        raise AppError("lexicon_not_ready", f"{lexicon.name} has not finished importing yet.")
    if lexicon.language not in (rules.language, classroom.language):
        raise AppError("wrong_language", f"{lexicon.name} is not in the language of {rules.title} or of the class.")


def split_into_tables(student_ids: list[int], size: int, min_players: int, max_players: int) -> list[list[int]]:
    """Shuffle the students and seat them at as few tables of at most ``size`` as possible, sizes differing by at
    most one; fewer, fuller tables when even splitting would leave a table short of the game's minimum."""
    if not min_players <= size <= max_players:
        raise AppError("bad_table_size", f"Tables for this game seat {min_players} to {max_players} players.")
    count = len(student_ids)
    if count < min_players:
        raise AppError(
            "too_few_students", f"This game needs at least {min_players} players; {count} students are in the class."
        )
    tables = -(-count // size)
    while tables > 1 and count // tables < min_players:
        tables -= 1
    if -(-count // tables) > max_players:
        raise AppError("bad_table_size", f"{count} students cannot be seated at tables of {min_players}–{max_players}.")
    ids = list(student_ids)
    secrets.SystemRandom().shuffle(ids)
    base, extra = divmod(count, tables)
    groups, start = [], 0
    for t in range(tables):
        end = start + base + (1 if t < extra else 0)
        groups.append(ids[start:end])
        start = end
    return groups


def _hand_seating(
    seating: Sequence[Sequence[int]], students: dict[int, Student], rules: Game, *, allow_short: bool = False
) -> list[list[int]]:
    groups = [list(group) for group in seating if group]
    if not groups:
        raise AppError("no_tables", "Seat at least one table.")
    seated = [i for group in groups for i in group]
    if len(set(seated)) != len(seated):
        raise AppError("bad_seating", "A student can sit at only one table.")
    unknown = [i for i in seated if i not in students]
    if unknown:
        raise AppError("bad_seating", "Only active students of this class can be seated.")
    for number, group in enumerate(groups, start=1):
        if not (1 if allow_short else rules.min_players) <= len(group) <= rules.max_players:
            raise AppError(
                "bad_table_size",
                f"Table {number} has {len(group)} players; {rules.title} is for {rules.min_players} to "
                f"{rules.max_players}.",
            )
    return groups


def _new_table(
    lesson: Lesson, number: int, rules: Game, students: list[Student], *, robots: int = 0, level: str = ""
) -> Table:
    """A new table of the lesson's game: the students in seats 0, 1, …, then ``robots`` robots of ``level``."""
    seed = secrets.randbits(62)
    state, events = rules.new_game(len(students) + robots, lesson.options, seed)
    table = Table.objects.create(
        lesson=lesson,
        number=number,
        game=lesson.game,
        lexicon=lesson.lexicon,
        options=lesson.options,
        seed=seed,
        state=state,
        version=0,
    )
    if state.get("clock_seconds"):
        table.turn_deadline = table.created + timedelta(seconds=state["clock_seconds"])
        table.save(update_fields=["turn_deadline"])
    seats = [Seat(table=table, number=n, student=s) for n, s in enumerate(students)]
    seats += [Seat(table=table, number=len(students) + n, robot=level) for n in range(robots)]
    Seat.objects.bulk_create(seats)
    Move.objects.create(
        table=table,
        seq=0,
        kind=Move.Kind.START,
        action={"players": len(students) + robots},
        events=events,
        created=table.created,
        recordable=bool(rules.encounters(state, events)),
    )
    if robots:
        table_id = table.id
        transaction.on_commit(lambda: robot_service.wake(table_id, 0))  # a robot may be first to play
    return table


# -- ending a lesson -----------------------------------------------------------------------------------------------
FINISH = "finish"  # end the game now: the scores stand as they are
RULES_END = "rules_end"  # the rules' own end (Grabble: end the play; the quiz runs in the next lesson)
KEEP = "keep"  # keep the game for the next lesson of the class
PLANS = (FINISH, RULES_END, KEEP)


def end_choices(table: Table) -> list[dict[str, str]]:
    """What ending the lesson may do with this unfinished table, each with the exact words of what will happen."""
    rules = selectors.rules_of(table.game)
    scores = rules.scores(table.state)
    names = {p["seat"]: p["name"] for p in selectors.players(table) if not p["removed"]}
    standing = ", ".join(f"{name} {scores.total[seat]}" for seat, name in names.items())
    finish = f"End it now; the scores stand as they are ({standing})."
    if scores.provisional:
        finish += " These are play scores only: the rest of the scoring (such as a quiz) will not happen."
    choices = [{"value": KEEP, "label": "Keep it for the next lesson: it resumes then, same seats, same state."}]
    if rules.end_action and any(a["type"] == rules.end_action for a in rules.actions(table.state, None)):
        spec = rules.action_specs[rules.end_action]
        choices.append(
            {
                "value": RULES_END,
                "label": f"{spec.label} now, as the rules end it; whatever the rules still ask (the quiz) is "
                "played in the next lesson.",
            }
        )
    choices.append({"value": FINISH, "label": finish})
    return choices


def unfinished_tables(lesson: Lesson) -> list[Table]:
    return list(lesson.tables.exclude(status=Table.Status.FINISHED).order_by("number"))


@transaction.atomic
def end_lesson(teacher: User, lesson_id: int, plans: dict[int, str] | None = None) -> Lesson:
    """End the lesson. Each unfinished game follows its plan (``plans``: table id -> ``finish``, ``rules_end`` or
    ``keep``; a table without one is finished as it stands): ended now, ended by the rules, or kept for the next
    lesson of the class."""
    lesson = Lesson.objects.select_for_update().filter(pk=lesson_id, classroom__teacher=teacher).first()
    if lesson is None:
        raise AppError(NOT_FOUND, "That is not a lesson of one of your classes.")
    if lesson.ended is not None:
        raise AppError(FINISHED, "This lesson has ended already.")
    plans = plans or {}
    bad = [p for p in plans.values() if p not in PLANS]
    if bad:
        raise AppError("bad_plan", "Choose for each table: finish, end by the rules, or keep.")
    for table in lesson.tables.select_for_update().exclude(status=Table.Status.FINISHED):
        plan = plans.get(table.id, FINISH)
        if plan == RULES_END:
            _end_by_rules(teacher, table)
        if table.status == Table.Status.FINISHED:
            continue
        moderation.set_status(table, Table.Status.KEPT if plan in (KEEP, RULES_END) else Table.Status.FINISHED)
    lesson.ended = timezone.now()
    lesson.save(update_fields=["ended"])
    learning_services.lesson_ended(lesson.id)
    return lesson


def _end_by_rules(teacher: User, table: Table) -> None:
    """Send the rules' end (as the teacher) through the move log, so it replays like any move."""
    rules = selectors.rules_of(table.game)
    if rules.end_action is None:
        raise AppError("no_rules_end", f"{rules.title} has no end of its own: finish it or keep it.")
    action = {"type": rules.end_action}
    now = timezone.now()
    if table.status != Table.Status.PLAYING:
        moderation.set_status(table, Table.Status.PLAYING)
    state, events = moves.run_rules(partial(rules.apply, table.state, None, action), table.lexicon_id, now)
    moves.record(table, rules, state, events, kind=Move.Kind.ACTION, seat=None, actor=teacher, action=action, now=now)


# -- seating during a lesson ---------------------------------------------------------------------------------------
def waiting_students(lesson: Lesson) -> list[Student]:
    """The class's active students without a place at a game of the lesson still being played: late joiners,
    players taken out, players whose game is over."""
    seated = Seat.objects.filter(
        table__lesson=lesson, removed=False, table__status__in=[Table.Status.PLAYING, Table.Status.PAUSED]
    ).values_list("student_id", flat=True)
    return list(lesson.classroom.students.filter(active=True).exclude(id__in=seated).order_by("joined"))


def _running_lesson_of(teacher: User, table: Table) -> Lesson:
    lesson = Lesson.objects.filter(pk=table.lesson_id, classroom__teacher=teacher).first()
    if lesson is None:
        raise AppError(FORBIDDEN, "Only the class's teacher can do that.")
    if lesson.ended is not None:
        raise AppError(FINISHED, "This lesson has ended.")
    return lesson


def _waiting_student(lesson: Lesson, student_id: int) -> Student:
    student = next((s for s in waiting_students(lesson) if s.id == student_id), None)
    if student is None:
        raise AppError("not_waiting", "That student is not waiting for a seat in this lesson.")
    return student


def _send_to_table(lesson: Lesson, student: Student, table: Table) -> None:
    """On commit, the student's class page takes them to their table."""
    urls = {str(student.user_id): reverse("games:table", args=[table.id])}
    message = {"type": "lesson.started", "urls": urls}
    group = transport.classroom_group(lesson.classroom_id)
    transaction.on_commit(lambda: transport.group_send(group, message))


@transaction.atomic
def seat_student(teacher: User, table_id: int, student_id: int, seat: int | None) -> Move:
    """Seat a waiting student at a table of the running lesson, where the rules allow it: in a removed player's
    ``seat`` (taking over what it holds), or, with ``None``, in a new seat (which may wait for the next hand)."""
    table = table_rows.locked_table(table_id)
    lesson = _running_lesson_of(teacher, table)
    student = _waiting_student(lesson, student_id)
    return _seat(teacher, lesson, table, student, seat)


def _seat(teacher: User, lesson: Lesson, table: Table, student: Student, seat: int | None) -> Move:
    if table.status == Table.Status.FINISHED:
        raise AppError(FINISHED, "This game is over.")
    rules = selectors.rules_of(table.game)
    now = timezone.now()
    result: dict[str, Any] = {}

    def play(ctx: Context) -> tuple[dict[str, Any], list[Event]]:
        state, events, number = rules.add_player(table.state, seat, ctx)
        result["seat"] = number
        return state, events

    state, events = moves.run_rules(play, table.lexicon_id, now)
    number = result["seat"]
    Seat.objects.filter(table=table, student=student).delete()  # an earlier, removed seat of theirs here
    row = Seat.objects.filter(table=table, number=number).first()
    if row is None:
        Seat.objects.create(table=table, number=number, student=student)
    else:
        row.student, row.removed, row.robot = student, False, ""  # a robot's seat is a student's again
        row.save(update_fields=["student", "removed", "robot"])
    _send_to_table(lesson, student, table)
    action = {"type": "add_player", "seat": seat}
    return moves.record(
        table, rules, state, events, kind=Move.Kind.SEATED, seat=None, actor=teacher, action=action, now=now
    )


@transaction.atomic
def replace_student(teacher: User, table_id: int, seat: int, student_id: int) -> Table:
    """A waiting student plays on in ``seat`` instead of its absent player: same hand, same score (the rules see
    no change; only who sits there). The absent player is then waiting."""
    table = table_rows.locked_table(table_id)
    lesson = _running_lesson_of(teacher, table)
    student = _waiting_student(lesson, student_id)
    row = table.seats.filter(number=seat, removed=False).first()
    if row is None:
        raise AppError(NOT_FOUND, "Nobody plays in that seat.")
    if table.seats.filter(student=student).exists():
        raise AppError("bad_seating", "That student already had a seat at this table.")
    row.student, row.robot = student, ""  # a robot's seat too: the student plays on from where it was
    row.save(update_fields=["student", "robot"])
    removed = {"type": "table.removed", "seat": seat}
    transaction.on_commit(lambda: transport.group_send(transport.table_group(table.id), removed))
    _send_to_table(lesson, student, table)
    moves.broadcast_refresh(table)
    return table


@transaction.atomic
def move_student(teacher: User, student_id: int, to_table_id: int, seat: int | None) -> Move:
    """Move a student from their table to another, where both games' rules allow it: taken out of the first
    (the rules decide what happens to their cards and turn), seated at the second."""
    target = table_rows.locked_table(to_table_id)
    lesson = _running_lesson_of(teacher, target)
    row = (
        Seat.objects.filter(table__lesson=lesson, student_id=student_id, removed=False)
        .exclude(table__status=Table.Status.FINISHED)
        .select_related("student")
        .first()
    )
    if row is None:
        raise AppError("not_seated", "That student has no seat at a game of this lesson.")
    if row.table_id == target.id:
        raise AppError("bad_seating", "The student already plays at that table.")
    rules = selectors.rules_of(target.game)
    if not rules.can_seat(target.state, seat):
        raise AppError("cannot_seat", f"{rules.title} cannot seat a player there now.")
    moderation.remove_player(teacher, row.table_id, row.number)
    assert row.student is not None  # found by its student
    return _seat(teacher, lesson, target, row.student, seat)


@transaction.atomic
def new_table(teacher: User, lesson_id: int, student_ids: list[int]) -> Table:
    """A new table of the lesson's game for waiting students."""
    lesson = Lesson.objects.select_for_update().filter(pk=lesson_id, classroom__teacher=teacher).first()
    if lesson is None:
        raise AppError(NOT_FOUND, "That is not a lesson of one of your classes.")
    if lesson.ended is not None:
        raise AppError(FINISHED, "This lesson has ended.")
    students = [_waiting_student(lesson, i) for i in dict.fromkeys(student_ids)]
    rules = selectors.rules_of(lesson.game)
    if not rules.min_players <= len(students) <= rules.max_players:
        raise AppError("bad_table_size", f"{rules.title} is for {rules.min_players} to {rules.max_players} players.")
    number = (lesson.tables.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    table = _new_table(lesson, number, rules, students)
    for student in students:
        _send_to_table(lesson, student, table)
    row = selectors.dashboard_row(table)
    transaction.on_commit(
        lambda: transport.group_send(transport.lesson_group(lesson.id), {"type": "lesson.row", "row": row})
    )
    return table
