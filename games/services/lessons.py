"""The teacher's lesson: starting one (seating the class at tables) and ending it."""

import secrets
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from config import transport
from games import selectors
from games.engine import AppError, Game
from games.models import Lesson, Move, Seat, Table
from games.services import moderation
from games.services.moves import FINISHED, FORBIDDEN, NOT_FOUND
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
) -> Lesson:
    """Start ``game`` for the class: tables filled by ``seating`` — a table size (the active students are shuffled
    and split as evenly as the game allows) or a list of tables, each a list of student ids. Students on the class
    page are then sent to their own table."""
    if not teacher.is_teacher or classroom.teacher_id != teacher.id:
        raise AppError(FORBIDDEN, "Only the class's teacher can start a lesson.")
    rules = selectors.rules_of(game)
    options = rules.clean_options(options)
    _check_lexicon(teacher, classroom, rules, lexicon)
    with transaction.atomic():
        Classroom.objects.select_for_update().filter(pk=classroom.pk).first()
        if Lesson.objects.filter(classroom=classroom, ended__isnull=True).exists():
            raise AppError("lesson_running", "A lesson is already running in this class: end it first.")
        students = {s.id: s for s in classroom.students.filter(active=True)}
        groups: list[list[int]]
        table_size: int | None
        if isinstance(seating, int):
            groups = split_into_tables(list(students), seating, rules.min_players, rules.max_players)
            table_size = seating
        else:
            groups = _hand_seating(seating, students, rules)
            table_size = None
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
        for number, ids in enumerate(groups, start=1):
            table = _new_table(lesson, number, rules, [students[i] for i in ids])
            for i in ids:
                urls[str(students[i].user_id)] = reverse("games:table", args=[table.id])
    message = {"type": "lesson.started", "urls": urls}
    transaction.on_commit(lambda: transport.group_send(transport.classroom_group(classroom.pk), message))
    return lesson


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


def _hand_seating(seating: Sequence[Sequence[int]], students: dict[int, Student], rules: Game) -> list[list[int]]:
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
        if not rules.min_players <= len(group) <= rules.max_players:
            raise AppError(
                "bad_table_size",
                f"Table {number} has {len(group)} players; {rules.title} is for {rules.min_players} to "
                f"{rules.max_players}.",
            )
    return groups


def _new_table(lesson: Lesson, number: int, rules: Game, students: list[Student]) -> Table:
    seed = secrets.randbits(62)
    state, events = rules.new_game(len(students), lesson.options, seed)
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
    Seat.objects.bulk_create([Seat(table=table, number=n, student=s) for n, s in enumerate(students)])
    Move.objects.create(table=table, seq=0, kind=Move.Kind.START, events=events, created=table.created)
    return table


@transaction.atomic
def end_lesson(teacher: User, lesson_id: int) -> Lesson:
    """End the lesson and every game still being played in it."""
    lesson = Lesson.objects.select_for_update().filter(pk=lesson_id, classroom__teacher=teacher).first()
    if lesson is None:
        raise AppError(NOT_FOUND, "That is not a lesson of one of your classes.")
    if lesson.ended is not None:
        raise AppError(FINISHED, "This lesson has ended already.")
    for table in lesson.tables.select_for_update().exclude(status=Table.Status.FINISHED):
        moderation.set_status(table, Table.Status.FINISHED)
    lesson.ended = timezone.now()
    lesson.save(update_fields=["ended"])
    learning_services.lesson_ended(lesson.id)
    return lesson
