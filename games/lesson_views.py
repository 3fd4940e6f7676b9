"""Pages for lessons that last: ending a lesson table by table, seating students during it, every table at once
(pause, resume, notices), the projector screen, the class's archive and the replay of every game. Thin: the
decisions are in :mod:`games.services.lessons`, :mod:`games.services.moderation`, the selectors and
:mod:`games.screen`."""

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import screen, selectors
from games.engine import AppError
from games.models import Lesson, Table
from games.services import lessons, moderation
from games.views import RENDERERS
from learning import selectors as learning_selectors
from learning.decorators import AuthenticatedRequest, teacher_required


def _lesson(request: AuthenticatedRequest, lesson_id: int) -> Lesson:
    lesson = selectors.teachers_lesson(request.user, lesson_id)
    if lesson is None:
        raise Http404("That is not a lesson of one of your classes.")
    return lesson


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


# -- ending a lesson -----------------------------------------------------------------------------------------------
@teacher_required
def end_lesson(request: AuthenticatedRequest, lesson_id: int) -> HttpResponse:
    """GET: each unfinished game with what ending the lesson may do with it, in words; POST: do it."""
    lesson = _lesson(request, lesson_id)
    if request.method == "POST":
        plans = {
            table.id: request.POST.get(f"table-{table.id}", lessons.FINISH)
            for table in lessons.unfinished_tables(lesson)
        }
        try:
            lessons.end_lesson(request.user, lesson.id, plans)
        except AppError as error:
            messages.error(request, error.message)
            return redirect("games:lesson", lesson_id=lesson.id)
        kept = sum(1 for p in plans.values() if p != lessons.FINISH)
        done = "The lesson has ended."
        if kept:
            done += f" {kept} game{'s are' if kept != 1 else ' is'} kept for the next lesson of the class."
        messages.success(request, done)
        return redirect("learning:classroom", classroom_id=lesson.classroom_id)
    if lesson.ended is not None:
        messages.info(request, "This lesson has ended already.")
        return redirect("games:archive", classroom_id=lesson.classroom_id)
    tables = [
        {"row": selectors.dashboard_row(t), "choices": lessons.end_choices(t)}
        for t in lessons.unfinished_tables(lesson)
    ]
    return render(request, "games/end_lesson.html", {"lesson": lesson, "classroom": lesson.classroom, "tables": tables})


# -- every table at once ---------------------------------------------------------------------------------------------
@require_POST
@teacher_required
def all_tables(request: AuthenticatedRequest, lesson_id: int, what: str) -> HttpResponse:
    changes: dict[str, Callable[[], int]] = {
        "pause": lambda: moderation.pause_all(request.user, lesson_id),
        "resume": lambda: moderation.resume_all(request.user, lesson_id),
        "notice": lambda: moderation.notify_all(request.user, lesson_id, request.POST.get("notice", "")),
    }
    if what not in changes:
        raise Http404("No such change.")
    try:
        count = changes[what]()
    except AppError as error:
        messages.error(request, error.message)
    else:
        verb = {"pause": "paused", "resume": "resumed", "notice": "told"}[what]
        messages.success(request, f"{count} table{'s' if count != 1 else ''} {verb}.")
    return redirect("games:lesson", lesson_id=lesson_id)


# -- seating during the lesson ---------------------------------------------------------------------------------------
@teacher_required
def waiting(request: AuthenticatedRequest, lesson_id: int) -> JsonResponse:
    """The students waiting for a seat, and every student seated at a game still being played (to move them)."""
    lesson = _lesson(request, lesson_id)
    students = [{"id": s.id, "name": s.display_name} for s in lessons.waiting_students(lesson)]
    return JsonResponse({"waiting": students, "ended": lesson.ended is not None})


def _seating(request: AuthenticatedRequest, lesson_id: int, change: Callable[[], object], done: str) -> HttpResponse:
    try:
        change()
        messages.success(request, done)
    except AppError as error:
        messages.error(request, error.message)
    return redirect("games:lesson", lesson_id=lesson_id)


@require_POST
@teacher_required
def seat_student(request: AuthenticatedRequest, lesson_id: int) -> HttpResponse:
    """Seat a waiting student: ``table`` and ``seat`` (empty: a new seat), or ``table=new`` with ``students``."""
    student = _int(request.POST.get("student"))
    if request.POST.get("table") == "new":
        ids = [i for i in (_int(v) for v in request.POST.getlist("students")) if i is not None]
        return _seating(
            request, lesson_id, lambda: lessons.new_table(request.user, lesson_id, ids), "A new table has started."
        )
    table_id = _int(request.POST.get("table"))
    if student is None or table_id is None:
        messages.error(request, "Choose a student and a table.")
        return redirect("games:lesson", lesson_id=lesson_id)
    seat = _int(request.POST.get("seat"))
    return _seating(
        request,
        lesson_id,
        lambda: lessons.seat_student(request.user, table_id, student, seat),
        "The student is seated.",
    )


@require_POST
@teacher_required
def replace_student(request: AuthenticatedRequest, lesson_id: int) -> HttpResponse:
    table_id, seat, student = (_int(request.POST.get(k)) for k in ("table", "seat", "student"))
    if table_id is None or seat is None or student is None:
        messages.error(request, "Choose who plays in that seat instead.")
        return redirect("games:lesson", lesson_id=lesson_id)
    return _seating(
        request,
        lesson_id,
        lambda: lessons.replace_student(request.user, table_id, seat, student),
        "The seat has a new player.",
    )


@require_POST
@teacher_required
def move_student(request: AuthenticatedRequest, lesson_id: int) -> HttpResponse:
    student, table_id = _int(request.POST.get("student")), _int(request.POST.get("table"))
    if student is None or table_id is None:
        messages.error(request, "Choose a student and the table to move them to.")
        return redirect("games:lesson", lesson_id=lesson_id)
    seat = _int(request.POST.get("seat"))
    return _seating(
        request,
        lesson_id,
        lambda: lessons.move_student(request.user, student, table_id, seat),
        "The student has moved tables.",
    )


# -- the projector ---------------------------------------------------------------------------------------------------
@teacher_required
def projector(request: AuthenticatedRequest, classroom_id: int) -> HttpResponse:
    classroom = learning_selectors.teachers_classroom(request.user, classroom_id)
    address = screen.join_address(request.build_absolute_uri("/"), classroom)
    context = {
        "classroom": classroom,
        "address": address,
        "qr": screen.qr_svg(address),
        "data": screen.screen_data(classroom),
        "data_url": reverse("games:projector_data", args=[classroom.id]),
    }
    return render(request, "games/projector.html", context)


@teacher_required
def projector_data(request: AuthenticatedRequest, classroom_id: int) -> JsonResponse:
    classroom = learning_selectors.teachers_classroom(request.user, classroom_id)
    return JsonResponse(screen.screen_data(classroom))


# -- the archive and replays -----------------------------------------------------------------------------------------
@teacher_required
def archive(request: AuthenticatedRequest, classroom_id: int) -> HttpResponse:
    """The class's lessons, newest first, with their tables and results (and the games kept from them)."""
    classroom = learning_selectors.teachers_classroom(request.user, classroom_id)
    past = []
    for lesson in classroom.lessons.order_by("-created"):
        tables = list(lesson.tables.order_by("number").prefetch_related("history")) + list(
            lesson.carried_tables.exclude(lesson=lesson).prefetch_related("history")
        )
        past.append(
            {
                "lesson": lesson,
                "title": selectors.game_title(lesson.game),
                "rows": [
                    {**selectors.dashboard_row(t), "kept_into": t.lesson if t.lesson_id != lesson.id else None}
                    for t in tables
                ],
            }
        )
    return render(request, "games/archive.html", {"classroom": classroom, "lessons": past})


def _replay_access(request: AuthenticatedRequest, table_id: int) -> tuple[Table, selectors.Access]:
    table = selectors.game_table(table_id)
    access = selectors.access(request.user, table)
    if access is None:
        raise PermissionDenied("You did not play at this table.")
    return table, access


def replay(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    table, access = _replay_access(request, table_id)
    rules = selectors.rules_of(table.game)
    names = {p["seat"]: p["name"] for p in selectors.players(table)}
    seats = [
        {"seat": s, "name": "everyone (spectator)" if s is None else names.get(s, f"seat {s}")}
        for s in selectors.replay_seats(table, access)
    ]
    context = {
        "table": table,
        "info": selectors.table_info(table),
        "rules": rules,
        "renderer_url": static(f"{RENDERERS}{rules.renderer}.js"),
        "seats": seats,
        "is_teacher": access.is_teacher,
        "last": table.version,
        "data_url": reverse("games:replay_data", args=[table.id]),
        "classroom": table.lesson.classroom,
    }
    return render(request, "games/replay.html", context)


def replay_data(request: AuthenticatedRequest, table_id: int) -> JsonResponse:
    """One step of the replay: ``step`` (a seq of the move log) seen as ``seat`` (empty: the spectator)."""
    if not request.user.is_authenticated:
        raise PermissionDenied("Log in first.")
    table, access = _replay_access(request, table_id)
    step = _int(request.GET.get("step")) or 0
    seat = _int(request.GET.get("seat"))
    try:
        return JsonResponse(selectors.replay_step(table, access, step, seat))
    except AppError as error:
        return JsonResponse({"code": error.code, "message": error.message}, status=403)
