"""Reads for classes and students."""

from django.db.models import QuerySet

from .models import Classroom, Student, User


def roster(classroom: Classroom) -> list[dict]:
    """The class's active students as the roster page and its websocket show them."""
    return [
        {"id": s.id, "name": s.display_name, "joined": s.joined.isoformat()}
        for s in classroom.students.filter(active=True).order_by("joined", "id")
    ]


def classrooms_of(teacher: User) -> QuerySet[Classroom]:
    return Classroom.objects.filter(teacher=teacher)


def can_view_classroom(user: User, classroom: Classroom) -> bool:
    """Teachers see their own classes; a student sees only the class they are an active member of."""
    if not user.is_authenticated:
        return False
    if user.is_teacher:
        return classroom.teacher_id == user.id
    student = getattr(user, "student", None)
    return student is not None and student.active and student.classroom_id == classroom.id


def student_of(user: User) -> Student | None:
    if not user.is_authenticated or not user.is_student:
        return None
    student = getattr(user, "student", None)
    return student if student is not None and student.active else None
