"""Scale-out (docs/architecture.md): two server processes share one Redis channel layer and one database, so a
change made through one process reaches pages connected to the other."""

import os
import uuid

import pytest
from playwright.sync_api import expect

from config.settings.base import redis_channel_layers
from learning import services
from learning.models import Classroom, User
from tests.browser.conftest import asgi_server
from tests.browser.pages import log_in

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")

pytestmark = [pytest.mark.browser, pytest.mark.redis]


@pytest.fixture
def two_servers(browser, django_db_blocker, transactional_db):
    layers = redis_channel_layers(REDIS_URL, f"scale-{uuid.uuid4().hex[:8]}")  # the layer as the settings make it
    with asgi_server(django_db_blocker, layers) as first, asgi_server(django_db_blocker, layers) as second:
        assert first != second
        yield first, second


def test_join_through_one_server_updates_the_roster_on_the_other(two_servers, new_page):
    first, second = two_servers
    User.objects.create_user(username="kyria", password="a-good-password-42", role=User.Role.TEACHER)
    room = services.create_classroom(User.objects.get(username="kyria"), "Koine", Classroom.Language.GREEK)

    teacher = new_page()
    log_in(teacher, first, "kyria")
    teacher.goto(f"{first}/classes/{room.id}/")
    expect(teacher.locator("[data-live-status]")).to_have_text("live")

    student = new_page()
    student.goto(f"{second}/join")
    student.get_by_label("Class code").fill(room.join_code)
    student.get_by_label("Your name").fill("Θεόφιλος")
    student.get_by_role("button", name="Join").click()
    expect(student.locator("h1")).to_have_text("Koine")

    expect(teacher.locator("#roster .student-name")).to_have_text(["Θεόφιλος"])
