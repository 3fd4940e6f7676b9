"""Who may open a page: the access decorators every app's views use."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase

from learning.models import User

View = Callable[..., HttpResponseBase]


class AuthenticatedRequest(HttpRequest):
    """The request of a view behind ``login_required`` or :func:`teacher_required`: its user is logged in."""

    user: User


def teacher_required(view: View) -> View:
    """A page for teachers only: a visitor is sent to log in, a student is refused (403)."""

    @wraps(view)
    @login_required
    def wrapped(request: AuthenticatedRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_teacher:
            raise PermissionDenied("This page is for teachers.")
        return view(request, *args, **kwargs)

    return wrapped
