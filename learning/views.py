"""Pages for classes: thin; every decision is in services and selectors."""

import csv

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.engine import AppError

from . import charts, reports, selectors, services, throttle
from .decorators import AuthenticatedRequest, teacher_required
from .forms import (
    ClassroomForm,
    JoinForm,
    LockForm,
    RejoinForm,
    RenameForm,
    TeacherSignupForm,
)
from .models import Classroom, Report, Student


def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated and request.user.is_teacher:
        return render(
            request,
            "learning/teacher_home.html",
            {"classrooms": selectors.classrooms_of(request.user), "form": ClassroomForm()},
        )
    student = selectors.student_of(request.user)
    if student is not None:
        return redirect("learning:classroom", classroom_id=student.classroom_id)
    return render(request, "learning/landing.html", {"join_form": JoinForm()})


def signup(request: HttpRequest) -> HttpResponse:
    form = TeacherSignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}! Create your first class below.")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    messages.info(request, "You are logged out.")
    return redirect("home")


@require_POST
@teacher_required
def create_classroom(request: AuthenticatedRequest) -> HttpResponse:
    form = ClassroomForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect("home")
    try:
        classroom = services.create_classroom(request.user, form.cleaned_data["name"], form.cleaned_data["language"])
    except AppError as error:
        messages.error(request, error.message)
        return redirect("home")
    messages.success(request, f"Class “{classroom.name}” created. Students join with the code {classroom.join_code}.")
    return redirect("learning:classroom", classroom_id=classroom.id)


@login_required
def classroom(request: AuthenticatedRequest, classroom_id: int) -> HttpResponse:
    room = selectors.classroom_or_404(classroom_id)
    if not selectors.can_view_classroom(request.user, room):
        raise PermissionDenied("You can only see your own class.")
    context = {
        "classroom": room,
        "roster": selectors.roster(room),
        "student": selectors.student_of(request.user),
        # Shown once, on the page a student lands on after joining.
        "show_rejoin_code": request.session.pop("show_rejoin_code", False),
    }
    template = "learning/classroom_teacher.html" if request.user.is_teacher else "learning/classroom_student.html"
    return render(request, template, context)


def join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST or None, initial={"code": request.GET.get("code", "")})
    if request.method == "POST" and form.is_valid():
        try:
            student = services.join_classroom(
                form.cleaned_data["code"], form.cleaned_data["name"], client=throttle.client_of(request)
            )
        except AppError as error:
            form.add_error(None, error.message)
        else:
            logout(request)
            login(request, student.user, backend="django.contrib.auth.backends.ModelBackend")
            request.session["show_rejoin_code"] = True
            messages.success(request, f"Welcome to {student.classroom.name}, {student.display_name}!")
            return redirect("learning:classroom", classroom_id=student.classroom_id)
    return render(request, "learning/join.html", {"form": form})


def rejoin(request: HttpRequest) -> HttpResponse:
    form = RejoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            student = services.find_by_rejoin_code(form.cleaned_data["code"], client=throttle.client_of(request))
        except AppError as error:
            form.add_error(None, error.message)
        else:
            logout(request)
            login(request, student.user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome back, {student.display_name}!")
            return redirect("learning:classroom", classroom_id=student.classroom_id)
    return render(request, "learning/rejoin.html", {"form": form})


@login_required
def my_rejoin_code(request: AuthenticatedRequest, classroom_id: int) -> HttpResponse:
    """A student's own rejoin code, shown only when asked for (not on every visit of the class page); a POST
    replaces it with a new one."""
    student = selectors.student_of(request.user)
    if student is None or student.classroom_id != classroom_id:
        raise PermissionDenied("Only students of this class have a rejoin code here.")
    if request.method == "POST":
        try:
            student = services.new_rejoin_code(request.user, student.pk)
        except AppError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, "Your old rejoin code no longer works: write down the new one.")
        return redirect("learning:my_rejoin_code", classroom_id=classroom_id)
    return render(request, "learning/rejoin_code.html", {"student": student, "classroom": student.classroom})


@require_POST
@teacher_required
def new_rejoin_code(request: AuthenticatedRequest, classroom_id: int, student_id: int) -> HttpResponse:
    try:
        student = services.new_rejoin_code(request.user, student_id)
    except AppError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"{student.display_name}'s new rejoin code is {student.rejoin_code}.")
    return redirect("learning:classroom", classroom_id=classroom_id)


@require_POST
@teacher_required
def rename_student(request: AuthenticatedRequest, classroom_id: int, student_id: int) -> HttpResponse:
    form = RenameForm(request.POST)
    if form.is_valid():
        try:
            student = services.rename_student(request.user, student_id, form.cleaned_data["name"])
            messages.success(request, f"Renamed to {student.display_name}.")
        except AppError as error:
            messages.error(request, error.message)
    else:
        messages.error(request, "Type the new name.")
    return redirect("learning:classroom", classroom_id=classroom_id)


@require_POST
@teacher_required
def remove_student(request: AuthenticatedRequest, classroom_id: int, student_id: int) -> HttpResponse:
    try:
        student = services.remove_student(request.user, student_id)
        messages.success(request, f"{student.display_name} was removed from the class.")
    except AppError as error:
        messages.error(request, error.message)
    return redirect("learning:classroom", classroom_id=classroom_id)


@require_POST
@teacher_required
def lock_classroom(request: AuthenticatedRequest, classroom_id: int) -> HttpResponse:
    form = LockForm(request.POST)
    form.is_valid()
    try:
        room = services.set_locked(request.user, classroom_id, form.cleaned_data.get("locked", False))
        messages.success(request, "The class is locked: nobody new can join." if room.locked else "The class is open.")
    except AppError as error:
        messages.error(request, error.message)
    return redirect("learning:classroom", classroom_id=classroom_id)


# -- reports and the review list -------------------------------------------------------------------------------------
def _report_student(request: AuthenticatedRequest, student_id: int) -> Student:
    """The student whose report is asked for, if the user may see it: the student, or their class's teacher."""
    student = selectors.student_or_404(student_id)
    user = request.user
    if user.is_teacher and student.classroom.teacher_id == user.id:
        return student
    me = selectors.student_of(user)
    if me is not None and me.pk == student.pk:
        return student
    raise PermissionDenied("You can only see your own report.")


def _teachers_classroom(request: AuthenticatedRequest, classroom_id: int) -> Classroom:
    room = selectors.classroom_or_404(classroom_id)
    if not (request.user.is_teacher and room.teacher_id == request.user.id):
        raise PermissionDenied("Class reports are for the class's teacher.")
    return room


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _job(report: Report | None) -> dict | None:
    if report is None:
        return None
    return {
        "id": report.pk,
        "status": report.status,
        "percent": report.percent,
        "finished": report.is_finished,
        "error": report.error_message,
        "status_url": reverse("learning:report_status", args=[report.pk]),
    }


def _csv(filename: str, rows) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")  # so spreadsheets read the file as UTF-8 and show Greek as written
    writer = csv.writer(response)
    writer.writerows(rows)
    return response


@teacher_required
def class_report(request: AuthenticatedRequest, classroom_id: int) -> HttpResponse:
    room = _teachers_classroom(request, classroom_id)
    report = reports.latest(room)
    figures = report.figures if report else None
    context = {
        "classroom": room,
        "report": report,
        "figures": figures,
        "job": _job(reports.pending(room)),
        "charts": charts.class_charts(figures) if figures else {},
    }
    return render(request, "learning/reports/class_report.html", context)


@login_required
def student_report(request: AuthenticatedRequest, student_id: int) -> HttpResponse:
    student = _report_student(request, student_id)
    report = reports.latest(student.classroom, student)
    figures = report.figures if report else None
    context = {
        "student": student,
        "classroom": student.classroom,
        "report": report,
        "figures": figures,
        "job": _job(reports.pending(student.classroom, student)),
        "charts": charts.student_charts(figures) if figures else {},
        "is_me": request.user.id == student.user_id,
    }
    return render(request, "learning/reports/student_report.html", context)


@require_POST
@teacher_required
def build_class_report(request: AuthenticatedRequest, classroom_id: int) -> HttpResponse:
    room = _teachers_classroom(request, classroom_id)
    report = services.request_report(request.user, room)
    if _wants_json(request):
        return JsonResponse(_job(report))
    messages.info(request, "The report is being built; this page shows it when it is ready.")
    return redirect("learning:class_report", classroom_id=room.id)


@require_POST
@login_required
def build_student_report(request: AuthenticatedRequest, student_id: int) -> HttpResponse:
    student = _report_student(request, student_id)
    report = services.request_report(request.user, student.classroom, student)
    if _wants_json(request):
        return JsonResponse(_job(report))
    messages.info(request, "The report is being built; this page shows it when it is ready.")
    return redirect("learning:student_report", student_id=student.id)


@login_required
def report_status(request: AuthenticatedRequest, report_id: int) -> JsonResponse:
    """The progress of a report job, for the page's progress bar."""
    report = selectors.report_or_404(report_id)
    if report.student_id is not None:
        _report_student(request, report.student_id)
    else:
        _teachers_classroom(request, report.classroom_id)
    services.sweep_reports(report)
    report.refresh_from_db()
    return JsonResponse(_job(report))


@teacher_required
def class_report_csv(request: AuthenticatedRequest, classroom_id: int, table: str) -> HttpResponse:
    room = _teachers_classroom(request, classroom_id)
    report = reports.latest(room)
    if report is None:
        raise Http404("This class has no report yet.")
    if table == "students":
        rows = reports.class_students_rows(report.figures)
    else:
        rows = reports.class_words_rows(selectors.student_reports(report))
    return _csv(f"class-{room.id}-{table}-{report.finished:%Y%m%d}.csv", rows)


@login_required
def student_report_csv(request: AuthenticatedRequest, student_id: int) -> HttpResponse:
    student = _report_student(request, student_id)
    report = reports.latest(student.classroom, student)
    if report is None:
        raise Http404("There is no report yet.")
    return _csv(f"student-{student.id}-words-{report.finished:%Y%m%d}.csv", reports.student_words_rows(report.figures))
