"""A teacher creates a class, a student joins in another browser, and the roster updates live."""

import re

import pytest
from playwright.sync_api import expect

from learning.models import User
from tests.browser.pages import log_in

pytestmark = pytest.mark.browser


def test_student_appears_on_the_teachers_roster_without_a_reload(live_server_url, new_page):
    User.objects.create_user(username="kyria", password="a-good-password-42", role=User.Role.TEACHER)

    teacher = new_page()
    log_in(teacher, live_server_url, "kyria")
    teacher.get_by_label("Name").fill("Greek 101")
    teacher.get_by_label("Language").select_option("grc")
    teacher.get_by_role("button", name="Create class").click()
    expect(teacher.locator("h1")).to_have_text("Greek 101")
    code = teacher.get_by_test_id("join-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z2-9]{6}", code)
    expect(teacher.locator("[data-live-status]")).to_have_text("live")
    expect(teacher.locator("#roster-empty")).to_be_visible()

    student = new_page()
    student.goto(f"{live_server_url}/join")
    student.get_by_label("Class code").fill(code.lower())
    student.get_by_label("Your name").fill("Ἀνδρέας")
    student.get_by_role("button", name="Join").click()
    expect(student.locator("h1")).to_have_text("Greek 101")
    expect(student.get_by_test_id("rejoin-code")).to_have_text(re.compile(r"^[A-Z2-9]{8}$"))

    expect(teacher.locator("#roster .student-name")).to_have_text(["Ἀνδρέας"])
    expect(teacher.locator("#roster-count")).to_have_text("1")
    expect(teacher.locator("#roster-empty")).to_be_hidden()


def test_join_with_a_wrong_code_shows_the_reason(live_server_url, new_page):
    page = new_page()
    page.goto(f"{live_server_url}/join")
    page.get_by_label("Class code").fill("QQQQQQ")
    page.get_by_label("Your name").fill("Ana")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("alert")).to_contain_text("That class code does not let you in")
