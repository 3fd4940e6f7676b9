"""Pages for lessons and tables: thin; every decision is in services and selectors."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from games import selectors
from games.engine import AppError
from games.forms import StartLessonForm
from games.services import lessons, moderation, practice, robots
from learning import selectors as learning_selectors
from learning.decorators import AuthenticatedRequest, teacher_required

RENDERERS = "games/renderers/"


@teacher_required
def start_lesson(request: AuthenticatedRequest, classroom_id: int) -> HttpResponse:
    classroom = learning_selectors.teachers_classroom(request.user, classroom_id)
    running = selectors.running_lesson(classroom)
    if running is not None:
        messages.info(request, "A lesson is running in this class: end it before starting another.")
        return redirect("games:lesson", lesson_id=running.id)
    show_all = request.GET.get("all") == "1"
    form = StartLessonForm(request.POST or None, classroom=classroom, teacher=request.user, show_all=show_all)
    if request.method == "POST" and form.is_valid():
        try:
            lesson = lessons.start_lesson(
                request.user,
                classroom,
                form.cleaned_data["game"],
                form.cleaned_data["lexicon"],
                form.chosen_options(),
                form.chosen_seating(),
                robots=form.cleaned_data.get("robots") or "",
            )
        except AppError as error:
            form.add_error(None, error.message)
        else:
            count = lesson.tables.count()
            messages.success(request, f"The lesson has started at {count} table{'s' if count != 1 else ''}.")
            return redirect("games:lesson", lesson_id=lesson.id)
    return render(request, "games/start_lesson.html", {"classroom": classroom, "form": form, "show_all": show_all})


@teacher_required
def lesson_dashboard(request: AuthenticatedRequest, lesson_id: int) -> HttpResponse:
    lesson = selectors.teachers_lesson(request.user, lesson_id)
    if lesson is None:
        raise Http404("That is not a lesson of one of your classes.")
    return render(
        request,
        "games/dashboard.html",
        {"lesson": lesson, "classroom": lesson.classroom, "rows": selectors.dashboard_rows(lesson)},
    )


@login_required
def table(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    table = selectors.game_table(table_id)
    access = selectors.access(request.user, table)
    if access is None:
        raise PermissionDenied("You do not play at this table.")
    robots.nudge(table)  # a robot whose process died mid-thought acts now
    rules = selectors.rules_of(table.game)
    context = {
        "table": table,
        "lesson": table.lesson,
        "classroom": table.lesson.classroom,
        "info": selectors.table_info(table),
        "seat": access.seat,
        "is_teacher": access.is_teacher,
        "rules": rules,
        "renderer_url": static(f"{RENDERERS}{rules.renderer}.js"),
        "practice": table.lesson.practice,
    }
    return render(request, "games/table.html", context)


def _moderate(request: AuthenticatedRequest, table_id: int, change: Callable[[], object], done: str) -> HttpResponse:
    """Run a teacher's change to a table, say how it went, and go back to where the teacher came from."""
    try:
        change()
        messages.success(request, done)
    except AppError as error:
        messages.error(request, error.message)
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        lesson = selectors.lesson_of_table(request.user, table_id)
        target = reverse("games:lesson", args=[lesson.id]) if lesson else reverse("home")
    return redirect(target)


@require_POST
@teacher_required
def pause_table(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    return _moderate(request, table_id, lambda: moderation.pause_table(request.user, table_id), "The table is paused.")


@require_POST
@teacher_required
def resume_table(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    return _moderate(request, table_id, lambda: moderation.resume_table(request.user, table_id), "Play resumes.")


@require_POST
@teacher_required
def end_table(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    return _moderate(request, table_id, lambda: moderation.end_table(request.user, table_id), "The game has ended.")


@require_POST
@teacher_required
def remove_player(request: AuthenticatedRequest, table_id: int, seat: int) -> HttpResponse:
    return _moderate(
        request,
        table_id,
        lambda: moderation.remove_player(request.user, table_id, seat),
        "The player was taken out of the game.",
    )


@login_required
def grabble_sheet(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    """The printable score sheet of a Grabble table, for its players and the class's teacher."""
    table = selectors.game_table(table_id, game="grabble")
    found = selectors.access(request.user, table)
    if found is None:
        raise PermissionDenied("You do not play at this table.")
    sheet = selectors.grabble_sheet(table, found.seat)
    context = {"table": table, "info": selectors.table_info(table), "sheet": sheet}
    return render(request, "games/grabble_sheet.html", context)


@require_POST
@teacher_required
def seat_robot(request: AuthenticatedRequest, table_id: int, seat: int) -> HttpResponse:
    level = request.POST.get("level", "steady")
    return _moderate(
        request,
        table_id,
        lambda: robots.seat_robot(request.user, table_id, seat, level),
        "A robot plays in that seat now.",
    )


@require_POST
@login_required
def start_practice(request: AuthenticatedRequest) -> HttpResponse:
    """A student starts a practice game against robots from their class page."""
    try:
        count = int(request.POST.get("robots", "1"))
    except ValueError:
        count = 1
    try:
        table = practice.start_practice(
            request.user, request.POST.get("game", ""), count, request.POST.get("level", "beginner")
        )
    except AppError as error:
        messages.error(request, error.message)
        return redirect("home")
    return redirect("games:table", table_id=table.id)


@require_POST
@login_required
def end_practice(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    try:
        practice.end_practice(request.user, table_id)
        messages.success(request, "The practice game has ended.")
    except AppError as error:
        messages.error(request, error.message)
    return redirect("home")


@require_POST
@login_required
def show_move(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    """ "Show me a move": a robot plays one move for the student at their practice table."""
    try:
        robots.show_move(request.user, table_id)
    except AppError as error:
        messages.error(request, error.message)
    return redirect("games:table", table_id=table_id)
