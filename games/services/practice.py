"""A student's practice games: any game of the class's language against one to three robots (the solitaire alone),
started from the class page, outside any lesson. A practice game is a one-table lesson marked ``practice`` (it
never counts as the class's running lesson): it is saved like any table and can be resumed from the class page;
its words are recorded as the student's encounters, marked as practice, so they appear in the student's reports
and review list and in the class report (practice time and words)."""

from datetime import timedelta
from itertools import pairwise
from typing import Any

from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone

from games import robots, selectors
from games.engine import AppError
from games.forms import offered_games
from games.models import Lesson, Move, Table
from games.services import moderation
from games.services.lessons import _new_table
from games.services.moves import FORBIDDEN, NOT_FOUND
from learning.models import Classroom, Encounter, Student, User
from learning.selectors import student_of
from lexicons.models import Lexicon

MAX_ROBOTS = 3


def practice_games(classroom: Classroom) -> dict[str, Any]:
    """The games a student of ``classroom`` may practise (its language's, and those without words)."""
    return offered_games(classroom, show_all=False)


def practice_lexicon(classroom: Classroom, game: str) -> Lexicon | None:
    """The lexicon a practice game uses: the one the class's last lesson of that game used, else the bundled one of
    the game's language (``None`` for games without words)."""
    rules = selectors.rules_of(game)
    if not rules.language:
        return None
    last = (
        Lesson.objects.filter(classroom=classroom, game=game, practice=False, lexicon__isnull=False)
        .select_related("lexicon")
        .first()
    )
    if last is not None and last.lexicon is not None and last.lexicon.is_usable:
        return last.lexicon
    usable = Lexicon.objects.filter(language=rules.language, version__gt=0)
    bundled = usable.filter(owner__isnull=True).order_by(F("slug").asc(nulls_last=True), "name").first()
    return bundled or usable.filter(owner=classroom.teacher).order_by("name").first()


def start_practice(user: User, game: str, robot_count: int = 1, level: str = "beginner") -> Table:
    """Start a practice game of ``game`` for the student ``user`` against ``robot_count`` robots of ``level``."""
    student = _student(user)
    classroom = student.classroom
    if game not in practice_games(classroom):
        raise AppError("unknown_game", "That game is not played in this class.")
    if level not in robots.LEVELS:
        raise AppError("bad_level", "Choose a robot level: beginner, steady or strong.")
    rules = selectors.rules_of(game)
    if rules.max_players == 1:
        robot_count = 0
    else:
        low = max(1, rules.min_players - 1)
        high = min(MAX_ROBOTS, rules.max_players - 1)
        if not low <= robot_count <= high:
            raise AppError("bad_robots", f"{rules.title} is played against {low} to {high} robots.")
    lexicon = practice_lexicon(classroom, game)
    with transaction.atomic():
        lesson = Lesson.objects.create(
            classroom=classroom,
            game=game,
            lexicon=lexicon,
            options=rules.clean_options({}),
            table_size=None,
            started_by=user,
            practice=True,
        )
        return _new_table(lesson, 1, rules, [student], robots=robot_count, level=level)


def end_practice(user: User, table_id: int) -> Table:
    """The student ends one of their practice games now (the scores stand)."""
    student = _student(user)
    with transaction.atomic():
        table = _own_practice_table(student, table_id)
        if table.status != Table.Status.FINISHED:
            moderation.set_status(table, Table.Status.FINISHED)
        Lesson.objects.filter(pk=table.lesson_id, ended__isnull=True).update(ended=timezone.now())
    return table


def practice_tables(student: Student, limit: int = 10) -> list[Table]:
    """The student's practice tables, unfinished first, then the latest."""
    tables = Table.objects.filter(lesson__practice=True, seats__student=student).order_by("status", "-updated")
    return list(tables.prefetch_related("history")[:limit])


def _student(user: User) -> Student:
    student = student_of(user)
    if student is None or not student.active:
        raise AppError(FORBIDDEN, "Only a student of a class can practise.")
    return student


def _own_practice_table(student: Student, table_id: int) -> Table:
    table = Table.objects.select_for_update().filter(pk=table_id, lesson__practice=True, seats__student=student).first()
    if table is None:
        raise AppError(NOT_FOUND, "That is not one of your practice games.")
    return table


def class_practice(classroom: Classroom) -> list[dict[str, Any]]:
    """Per student of the class who practised: games, time spent (from each practice table's first move to its
    last, gaps of more than ten minutes left out) and distinct words met in practice."""
    rows = []
    words = {
        row["student_id"]: row["n"]
        for row in Encounter.objects.filter(classroom=classroom, practice=True)
        .values("student_id")
        .annotate(n=Count("key", distinct=True))
    }
    for student in classroom.students.filter(active=True).order_by("display_name"):
        tables = list(Table.objects.filter(lesson__practice=True, seats__student=student).values_list("id", flat=True))
        if not tables:
            continue
        rows.append(
            {
                "student": student.display_name,
                "games": len(tables),
                "minutes": round(_active_time(tables).total_seconds() / 60),
                "words": words.get(student.id, 0),
            }
        )
    return rows


def _active_time(table_ids: list[int], gap: timedelta = timedelta(minutes=10)) -> timedelta:
    total = timedelta()
    for table_id in table_ids:
        times = list(Move.objects.filter(table_id=table_id).order_by("seq").values_list("created", flat=True))
        for earlier, later in pairwise(times):
            total += min(later - earlier, gap)
    return total
