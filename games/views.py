"""Pages for lessons and tables: thin; every decision is in services and selectors."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from learning.models import Classroom
from learning.views import teacher_required

from . import selectors, services
from .forms import StartLessonForm
from .models import Lesson, Table
from .services import TableError

RENDERERS = "games/renderers/"


@teacher_required
def start_lesson(request: HttpRequest, classroom_id: int) -> HttpResponse:
    classroom = get_object_or_404(Classroom, pk=classroom_id, teacher=request.user)
    running = selectors.running_lesson(classroom)
    if running is not None:
        messages.info(request, "A lesson is running in this class: end it before starting another.")
        return redirect("games:lesson", lesson_id=running.id)
    show_all = request.GET.get("all") == "1"
    form = StartLessonForm(request.POST or None, classroom=classroom, teacher=request.user, show_all=show_all)
    if request.method == "POST" and form.is_valid():
        try:
            lesson = services.start_lesson(
                request.user,
                classroom,
                form.cleaned_data["game"],
                form.cleaned_data["lexicon"],
                form.chosen_options(),
                form.chosen_seating(),
            )
        except TableError as error:
            form.add_error(None, error.message)
        else:
            count = lesson.tables.count()
            messages.success(request, f"The lesson has started at {count} table{'s' if count != 1 else ''}.")
            return redirect("games:lesson", lesson_id=lesson.id)
    return render(request, "games/start_lesson.html", {"classroom": classroom, "form": form, "show_all": show_all})


@teacher_required
def lesson_dashboard(request: HttpRequest, lesson_id: int) -> HttpResponse:
    lesson = get_object_or_404(selectors.lessons_of(request.user).select_related("classroom"), pk=lesson_id)
    return render(
        request,
        "games/dashboard.html",
        {"lesson": lesson, "classroom": lesson.classroom, "rows": selectors.dashboard_rows(lesson)},
    )


@require_POST
@teacher_required
def end_lesson(request: HttpRequest, lesson_id: int) -> HttpResponse:
    try:
        lesson = services.end_lesson(request.user, lesson_id)
    except TableError as error:
        messages.error(request, error.message)
        return redirect("home")
    messages.success(request, "The lesson has ended.")
    return redirect("learning:classroom", classroom_id=lesson.classroom_id)


@login_required
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("lesson__classroom"), pk=table_id)
    access = selectors.access(request.user, table)
    if access is None:
        raise PermissionDenied("You do not play at this table.")
    rules = services.rules_of(table.game)
    context = {
        "table": table,
        "lesson": table.lesson,
        "classroom": table.lesson.classroom,
        "info": selectors.table_info(table),
        "seat": access.seat,
        "is_teacher": access.is_teacher,
        "rules": rules,
        "renderer_url": static(f"{RENDERERS}{rules.renderer}.js"),
    }
    return render(request, "games/table.html", context)


def _moderate(request: HttpRequest, table_id: int, change, done: str) -> HttpResponse:
    """Run a teacher's change to a table, say how it went, and go back to where the teacher came from."""
    try:
        change()
        messages.success(request, done)
    except TableError as error:
        messages.error(request, error.message)
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        lesson = Lesson.objects.filter(tables__pk=table_id, classroom__teacher=request.user).first()
        target = reverse("games:lesson", args=[lesson.id]) if lesson else reverse("home")
    return redirect(target)


@require_POST
@teacher_required
def pause_table(request: HttpRequest, table_id: int) -> HttpResponse:
    return _moderate(request, table_id, lambda: services.pause_table(request.user, table_id), "The table is paused.")


@require_POST
@teacher_required
def resume_table(request: HttpRequest, table_id: int) -> HttpResponse:
    return _moderate(request, table_id, lambda: services.resume_table(request.user, table_id), "Play resumes.")


@require_POST
@teacher_required
def end_table(request: HttpRequest, table_id: int) -> HttpResponse:
    return _moderate(request, table_id, lambda: services.end_table(request.user, table_id), "The game has ended.")


@require_POST
@teacher_required
def remove_player(request: HttpRequest, table_id: int, seat: int) -> HttpResponse:
    return _moderate(
        request,
        table_id,
        lambda: services.remove_player(request.user, table_id, seat),
        "The player was taken out of the game.",
    )


@login_required
def grabble_sheet(request: HttpRequest, table_id: int) -> HttpResponse:
    """The printable score sheet of a Grabble table, for its players and the class's teacher."""
    table = get_object_or_404(Table.objects.select_related("lesson__classroom"), pk=table_id, game="grabble")
    if selectors.access(request.user, table) is None:
        raise PermissionDenied("You do not play at this table.")
    context = {"table": table, "info": selectors.table_info(table), "sheet": selectors.grabble_sheet(table)}
    return render(request, "games/grabble_sheet.html", context)
