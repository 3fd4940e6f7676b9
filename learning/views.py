"""Pages for classes: thin; every decision is in services and selectors."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from . import selectors, services
from .forms import ClassroomForm, JoinForm, LockForm, RejoinForm, RenameForm, TeacherSignupForm
from .models import Classroom
from .services import ClassroomError


def teacher_required(view):
    @wraps(view)
    @login_required
    def wrapped(request: HttpRequest, *args, **kwargs):
        if not request.user.is_teacher:
            raise PermissionDenied("This page is for teachers.")
        return view(request, *args, **kwargs)

    return wrapped


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
def create_classroom(request: HttpRequest) -> HttpResponse:
    form = ClassroomForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect("home")
    try:
        classroom = services.create_classroom(request.user, form.cleaned_data["name"], form.cleaned_data["language"])
    except ClassroomError as error:
        messages.error(request, error.message)
        return redirect("home")
    messages.success(request, f"Class “{classroom.name}” created. Students join with the code {classroom.join_code}.")
    return redirect("learning:classroom", classroom_id=classroom.id)


@login_required
def classroom(request: HttpRequest, classroom_id: int) -> HttpResponse:
    room = get_object_or_404(Classroom, pk=classroom_id)
    if not selectors.can_view_classroom(request.user, room):
        raise PermissionDenied("You can only see your own class.")
    context = {"classroom": room, "roster": selectors.roster(room), "student": selectors.student_of(request.user)}
    template = "learning/classroom_teacher.html" if request.user.is_teacher else "learning/classroom_student.html"
    return render(request, template, context)


def join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST or None, initial={"code": request.GET.get("code", "")})
    if request.method == "POST" and form.is_valid():
        try:
            student = services.join_classroom(form.cleaned_data["code"], form.cleaned_data["name"])
        except ClassroomError as error:
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
            student = services.find_by_rejoin_code(form.cleaned_data["code"])
        except ClassroomError as error:
            form.add_error(None, error.message)
        else:
            logout(request)
            login(request, student.user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome back, {student.display_name}!")
            return redirect("learning:classroom", classroom_id=student.classroom_id)
    return render(request, "learning/rejoin.html", {"form": form})


@require_POST
@teacher_required
def rename_student(request: HttpRequest, classroom_id: int, student_id: int) -> HttpResponse:
    form = RenameForm(request.POST)
    if form.is_valid():
        try:
            student = services.rename_student(request.user, student_id, form.cleaned_data["name"])
            messages.success(request, f"Renamed to {student.display_name}.")
        except ClassroomError as error:
            messages.error(request, error.message)
    else:
        messages.error(request, "Type the new name.")
    return redirect("learning:classroom", classroom_id=classroom_id)


@require_POST
@teacher_required
def remove_student(request: HttpRequest, classroom_id: int, student_id: int) -> HttpResponse:
    try:
        student = services.remove_student(request.user, student_id)
        messages.success(request, f"{student.display_name} was removed from the class.")
    except ClassroomError as error:
        messages.error(request, error.message)
    return redirect("learning:classroom", classroom_id=classroom_id)


@require_POST
@teacher_required
def lock_classroom(request: HttpRequest, classroom_id: int) -> HttpResponse:
    form = LockForm(request.POST)
    form.is_valid()
    try:
        room = services.set_locked(request.user, classroom_id, form.cleaned_data.get("locked", False))
        messages.success(request, "The class is locked: nobody new can join." if room.locked else "The class is open.")
    except ClassroomError as error:
        messages.error(request, error.message)
    return redirect("learning:classroom", classroom_id=classroom_id)
