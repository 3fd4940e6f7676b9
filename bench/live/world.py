"""The classes, students and lessons the benchmark plays in, made through the app's own services.

Runs in the benchmark's own process against the scratch database (Django set up by ``run.py``). Every table is a
Palabras Cortas table of ``players`` students; its students' session cookies are made the way the test suite makes
them (``Client.force_login``), so the sockets authenticate exactly like a browser that went through the join page.
"""

from dataclasses import dataclass

from django.conf import settings
from django.test import Client

from games.services import lessons
from learning import services as learning_services
from learning.models import Classroom, User

GAME = "palabras_cortas"


@dataclass(frozen=True)
class TablePlan:
    """One table to connect to: its id and, per seat in seat order, that student's ``Cookie`` header."""

    table_id: int
    cookies: list[str]


def build(tables: int, players: int, tables_per_class: int) -> list[TablePlan]:
    """Create one teacher and as many classes as needed, each running a lesson of ``tables_per_class`` tables."""
    teacher = User.objects.create_user(username="bench-teacher", password="bench-password-42", role=User.Role.TEACHER)
    plans: list[TablePlan] = []
    number = 0
    while len(plans) < tables:
        count = min(tables_per_class, tables - len(plans))
        plans += _class_with_lesson(teacher, number, count, players)
        number += 1
    return plans


def _class_with_lesson(teacher: User, number: int, tables: int, players: int) -> list[TablePlan]:
    classroom = learning_services.create_classroom(teacher, f"Bench class {number}", Classroom.Language.SPANISH)
    students = [learning_services.join_classroom(classroom.join_code, f"Student {i}") for i in range(tables * players)]
    seating = [[s.id for s in students[t * players : (t + 1) * players]] for t in range(tables)]
    lesson = lessons.start_lesson(teacher, classroom, GAME, None, {}, seating)
    plans = []
    for table in lesson.tables.order_by("number"):
        users = [seat.student.user for seat in table.seats.select_related("student__user").order_by("number")]
        plans.append(TablePlan(table.id, [session_cookie(user) for user in users]))
    return plans


def session_cookie(user: User) -> str:
    """A logged-in session for ``user``, as the ``Cookie`` header a browser would send."""
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
