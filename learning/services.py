"""Every write to classes and students, and the entry points of the learning records (recording moves, report
jobs). Views, consumers and the games side call these; nothing else writes. Every refusal is an
:class:`games.engine.AppError` (the application's one error type)."""

import logging
import unicodedata
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from config.celery import publish, send_lost_again
from config.transport import classroom_group, group_send, user_group
from games.engine import AppError

from . import codes, encounters, reports, selectors, signals, tasks, throttle
from .models import Classroom, Report, Student, User

logger = logging.getLogger(__name__)


def create_classroom(teacher: User, name: str, language: str) -> Classroom:
    if not teacher.is_teacher:
        raise AppError("teacher_only", "Only teachers can create classes.")
    name = unicodedata.normalize("NFC", name.strip())
    if not name:
        raise AppError("bad_name", "Give the class a name.")
    if language not in Classroom.Language.values:
        raise AppError("bad_language", "Choose one of the offered languages.")
    for _ in range(10):
        try:
            with transaction.atomic():
                return Classroom.objects.create(
                    teacher=teacher, name=name, language=language, join_code=codes.new_code(codes.JOIN_CODE_LENGTH)
                )
        except IntegrityError:
            continue  # join code collision: draw again
    raise AppError("no_code", "Could not find a free join code; please try again.")


def clean_display_name(name: str) -> str:
    name = " ".join(unicodedata.normalize("NFC", name).split())
    if not name:
        raise AppError("bad_name", "Please type the name your classmates will see.")
    if len(name) > Student.NAME_MAX_LENGTH:
        raise AppError("name_too_long", f"Names can be at most {Student.NAME_MAX_LENGTH} characters long.")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise AppError("bad_name", "Names cannot contain control characters.")
    return name


def _check_name_free(classroom: Classroom, name: str, exclude: Student | None = None) -> None:
    taken = classroom.students.filter(active=True, display_name__iexact=name)
    if exclude is not None:
        taken = taken.exclude(pk=exclude.pk)
    if taken.exists():
        raise AppError("name_taken", f"Someone in this class is already called “{name}”. Please choose another name.")


WRONG_JOIN_CODE = "That class code does not let you in: check it with your teacher (the class may be locked)."


@transaction.atomic
def join_classroom(join_code: str, display_name: str, client: str = "") -> Student:
    """A new student joins with the class's code. Returns the student, whose rejoin code they keep.

    The name is checked before the code, so that what a name earns never depends on the code; every code that
    does not let the student in (unknown, or a locked class) gets the same answer; and a client or a code that
    fails too often is throttled (``learning.throttle``)."""
    code = codes.clean_code(join_code)
    if not code:
        raise AppError("no_code", "Please type the class code your teacher gave you.")
    name = clean_display_name(display_name)
    throttle.check("join", client, code)
    classroom = Classroom.objects.select_for_update().filter(join_code=code).first()
    if classroom is None or classroom.locked:
        throttle.failed("join", client, code)
        raise AppError("wrong_code", WRONG_JOIN_CODE)
    _check_name_free(classroom, name)
    user = User.objects.create(username=f"student-{codes.new_code(12)}", role=User.Role.STUDENT)
    user.set_unusable_password()
    user.save(update_fields=["password"])
    student = Student.objects.create(user=user, classroom=classroom, display_name=name, rejoin_code=_free_rejoin_code())
    _announce_roster(classroom)
    return student


def _free_rejoin_code() -> str:
    while True:
        code = codes.new_code(codes.REJOIN_CODE_LENGTH)
        if not Student.objects.filter(rejoin_code=code).exists():
            return code


def find_by_rejoin_code(rejoin_code: str, client: str = "") -> Student:
    code = codes.clean_code(rejoin_code)
    throttle.check("rejoin", client, code)
    student = Student.objects.select_related("user", "classroom").filter(rejoin_code=code).first()
    if student is None:
        throttle.failed("rejoin", client, code)
        raise AppError("wrong_code", "That rejoin code is not known. Check it, or join again with the class code.")
    if not student.active:
        raise AppError("removed", "Your teacher has removed you from this class.")
    return student


def _teachers_student(teacher: User, student_id: int) -> Student:
    student = (
        Student.objects.select_for_update()
        .select_related("classroom")
        .filter(pk=student_id, classroom__teacher=teacher, active=True)
        .first()
    )
    if student is None:
        raise AppError("not_found", "That student is not in one of your classes.")
    return student


@transaction.atomic
def rename_student(teacher: User, student_id: int, new_name: str) -> Student:
    student = _teachers_student(teacher, student_id)
    name = clean_display_name(new_name)
    _check_name_free(student.classroom, name, exclude=student)
    student.display_name = name
    student.save(update_fields=["display_name"])
    _announce_roster(student.classroom)
    return student


@transaction.atomic
def remove_student(teacher: User, student_id: int) -> Student:
    """Take a student out of the class: they can no longer log in, and their open pages are closed."""
    student = _teachers_student(teacher, student_id)
    student.active = False
    student.save(update_fields=["active"])
    User.objects.filter(pk=student.user_id).update(is_active=False)
    _announce_roster(student.classroom)
    signals.student_removed.send(sender=Student, student_id=student.pk, teacher=teacher)
    user_id = student.user_id
    transaction.on_commit(lambda: group_send(user_group(user_id), {"type": "user.removed"}))
    return student


@transaction.atomic
def new_rejoin_code(user: User, student_id: int) -> Student:
    """A fresh rejoin code for a student, asked for by that student or by their teacher: the old one stops
    working at once (a code seen over a shoulder, or written on a lost sheet)."""
    if user.is_teacher:
        student = _teachers_student(user, student_id)
    else:
        own = Student.objects.select_for_update().filter(pk=student_id, user=user, active=True).first()
        if own is None:
            raise AppError("not_found", "You can only change your own rejoin code.")
        student = own
    student.rejoin_code = _free_rejoin_code()
    student.save(update_fields=["rejoin_code"])
    return student


def logged_out(sender: Any, request: Any, user: User | None, **kwargs: Any) -> None:
    """Django's ``user_logged_out``: close every page the person still has open, so no socket outlives the
    session (a move sent on an open table page after logging out used to be applied)."""
    if user is not None:
        user_id = user.pk
        transaction.on_commit(lambda: group_send(user_group(user_id), {"type": "user.logged_out"}))


@transaction.atomic
def set_locked(teacher: User, classroom_id: int, locked: bool) -> Classroom:
    classroom = Classroom.objects.select_for_update().filter(pk=classroom_id, teacher=teacher).first()
    if classroom is None:
        raise AppError("not_found", "That is not one of your classes.")
    classroom.locked = locked
    classroom.save(update_fields=["locked"])
    _announce_roster(classroom)
    return classroom


def _announce_roster(classroom: Classroom) -> None:
    """Push the roster to the class's open pages once the change is committed (never before: a
    rolled-back join must not appear)."""

    def send() -> None:
        fresh = Classroom.objects.get(pk=classroom.pk)
        group_send(
            classroom_group(classroom.pk),
            {"type": "roster.changed", "students": selectors.roster(fresh), "locked": fresh.locked},
        )

    transaction.on_commit(send)


# -- learning records ------------------------------------------------------------------------------------------------
def enqueue_recording(move) -> None:
    """Record ``move``'s word encounters in a Celery job once the move's transaction commits (games call this
    where they append the move; the job never slows the move, and a broker that is down is logged, not raised)."""
    transaction.on_commit(partial(publish_recording, move.pk))


def publish_recording(move_id: int) -> None:
    """Publish the recording job of a committed move. A broker that is down is logged, not raised: the move
    stands, and :func:`lesson_ended` records the lesson's moves whose job never ran."""
    publish(tasks.record_move, move_id, what=f"the recording job of move {move_id}")


def record_move(move_id: int) -> int:
    """Record one move's encounters now (the job's body; idempotent). Returns how many were stored."""
    return encounters.record_move(move_id)


def _enqueue_report(report: Report) -> None:
    report_id = report.pk
    transaction.on_commit(lambda: _send_report(report_id))


def _send_report(report_id: int) -> None:
    """Publish the report's job; a broker that is down leaves it queued for the next sweep."""
    publish(tasks.build_report, report_id, what=f"report job {report_id} (it stays queued)")


def sweep_reports(report: Report | None = None) -> None:
    """Put right what a dead worker or a lost message left (``report``, or every report): one running with no
    progress past ``REPORT_HEARTBEAT_TIMEOUT``, or still queued after ``JOB_RESEND_AFTER``, is sent again (a
    report build is idempotent). Called by the report page's polling and when a worker starts."""
    now = timezone.now()
    reports_ = Report.objects.filter(pk=report.pk) if report is not None else Report.objects.all()
    silent = now - timedelta(seconds=settings.REPORT_HEARTBEAT_TIMEOUT)
    for dead in reports_.filter(status=Report.Status.RUNNING, heartbeat__lt=silent):
        if Report.objects.filter(pk=dead.pk, status=Report.Status.RUNNING).update(
            status=Report.Status.QUEUED, heartbeat=now
        ):
            _send_report(dead.pk)
    send_lost_again(reports_, now, _send_report)


def lesson_ended(lesson_id: int) -> Report | None:
    """A lesson ended: build its class report with one report per student, once however often this is called.
    Moves whose recording jobs are still queued are recorded first. ``None``: there is no such lesson."""
    from games.models import Lesson  # games imports this module; the reverse import waits until it is needed

    classroom_id = Lesson.objects.filter(pk=lesson_id).values_list("classroom_id", flat=True).first()
    if classroom_id is None:
        logger.warning("report asked for lesson %s, which does not exist", lesson_id)
        return None
    try:
        with transaction.atomic():
            report, created = Report.objects.get_or_create(
                scope=Report.Scope.CLASS, classroom_id=classroom_id, lesson_id=lesson_id
            )
            if created:
                _enqueue_report(report)
    except IntegrityError:  # the same lesson's end reported twice at the same moment
        report = Report.objects.get(scope=Report.Scope.CLASS, classroom_id=classroom_id, lesson_id=lesson_id)
    return report


def request_report(user: User, classroom: Classroom, student: Student | None = None) -> Report:
    """Ask for a class report (``student`` None; the class's teacher only) or one student's (their teacher or the
    student). A job already under way for the same report is returned instead of starting another."""
    if student is None:
        allowed = user.is_teacher and classroom.teacher_id == user.pk
    else:
        allowed = student.classroom_id == classroom.pk and (
            (user.is_teacher and classroom.teacher_id == user.pk) or student.user_id == user.pk
        )
    if not allowed:
        raise AppError("forbidden", "You can only ask for reports of your own class, or your own report.")
    scope = Report.Scope.STUDENT if student else Report.Scope.CLASS
    running = reports.pending(classroom, student)
    if running is not None:
        return running
    with transaction.atomic():
        report = Report.objects.create(classroom=classroom, scope=scope, student=student, requested_by=user)
        _enqueue_report(report)
    return report
