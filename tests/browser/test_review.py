"""A student of a Spanish class reviews their words in a real browser: meanings to choose among, what was right."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from learning import services
from learning.models import ReviewItem, Student, User
from tests.browser.pages import join

pytestmark = pytest.mark.browser


def test_a_spanish_student_reviews_by_choosing_meanings(live_server_url, new_page):
    teacher = User.objects.create_user(username="maestra", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher, "Español 1", "spa")
    page = new_page()
    join(page, live_server_url, classroom.join_code, "Lucía")
    lucia = Student.objects.get(classroom=classroom, display_name="Lucía")
    for key, form, gloss in [("CANCION", "canción", "song"), ("CASA", "casa", "house"), ("PERRO", "perro", "dog")]:
        ReviewItem.objects.create(
            student=lucia, language="spa", key=key, form=form, lemma=form, gloss=gloss, due=timezone.localdate()
        )

    page.get_by_role("link", name="Review").first.click()
    expect(page.get_by_test_id("review-items")).to_contain_text("canción")
    page.get_by_role("link", name="Review now (3 due)").click()
    expect(page.get_by_test_id("review-word")).to_have_text("canción")
    meanings = page.get_by_test_id("meanings")
    for gloss in ("song", "house", "dog"):
        expect(meanings).to_contain_text(gloss)
    meanings.get_by_label("house").check()
    page.get_by_role("button", name="Check").click()
    expect(page.locator(".messages")).to_contain_text("it means “song”, not “house”")

    expect(page.get_by_test_id("review-word")).to_have_text("casa")
    page.get_by_test_id("meanings").get_by_label("house").check()
    page.get_by_label("Easy").check()
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_text("Right!")).to_be_visible()
    expect(page.get_by_test_id("review-word")).to_have_text("perro")
    assert ReviewItem.objects.get(student=lucia, key="CASA").due > timezone.localdate()
