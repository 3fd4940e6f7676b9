"""Reads for classes and students."""

from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from .models import Classroom, Report, ReviewItem, Student, User


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


def student_of(user: User | AnonymousUser) -> Student | None:
    if not user.is_authenticated or not user.is_student:
        return None
    student = getattr(user, "student", None)
    return student if student is not None and student.active else None


def classroom_by_id(classroom_id: int) -> Classroom | None:
    return Classroom.objects.filter(pk=classroom_id).first()


def classroom_or_404(classroom_id: int) -> Classroom:
    return get_object_or_404(Classroom, pk=classroom_id)


def teachers_classroom(teacher: User, classroom_id: int) -> Classroom:
    """One of ``teacher``'s classes, or 404."""
    return get_object_or_404(Classroom, pk=classroom_id, teacher=teacher)


def student_or_404(student_id: int) -> Student:
    return get_object_or_404(Student.objects.select_related("classroom"), pk=student_id)


def report_or_404(report_id: int) -> Report:
    return get_object_or_404(Report.objects.select_related("classroom"), pk=report_id)


def student_reports(report: Report) -> QuerySet[Report]:
    """The per-student reports of a class report, by name."""
    return report.children.select_related("student").order_by("student__display_name")


def review_item(student: Student, item_id: int) -> ReviewItem | None:
    """One word of ``student``'s own review list."""
    return student.review_items.filter(pk=item_id).first()
