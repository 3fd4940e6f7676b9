"""Fixtures shared by the whole suite."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from learning import services
from learning.models import Classroom, User


@pytest.fixture
def teacher(db) -> User:
    return User.objects.create_user(username="ms-kalogeropoulou", password="a-good-password-42", role=User.Role.TEACHER)


@pytest.fixture
def other_teacher(db) -> User:
    return User.objects.create_user(username="mr-other", password="a-good-password-42", role=User.Role.TEACHER)


@pytest.fixture
def classroom(teacher) -> Classroom:
    return services.create_classroom(teacher, "Greek 101", Classroom.Language.GREEK)


@pytest.fixture
def student(classroom):
    return services.join_classroom(classroom.join_code, "Ana")


def session_cookie_for(user: User) -> bytes:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


async def communicator(path: str, user: User | None = None, origin: str = "http://testserver") -> WebsocketCommunicator:
    """A websocket client for the real ASGI application (origin check and session auth included)."""
    headers = [(b"origin", origin.encode()), (b"host", b"testserver")]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie_for)(user)))
    return WebsocketCommunicator(application, path, headers=headers)
