"""The start-lesson form shows only the lexicons of the chosen game's language, and names that language."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from learning.models import Classroom, User
from lexicons.models import Lexicon
from tests.browser.pages import log_in

pytestmark = pytest.mark.browser


def test_choosing_a_game_shows_the_lexicons_of_its_language(live_server_url, new_page):
    teacher = User.objects.create_user(username="kyria", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = Classroom.objects.create(teacher=teacher, name="Greek 101", language="grc", join_code="ABCDEF")
    Lexicon.objects.filter(slug__isnull=False).update(version=0)  # only the lexicons made here
    greek = Lexicon.objects.create(name="Greek words", language="grc", version=1, status=Lexicon.Status.READY)
    spanish = Lexicon.objects.create(name="Mis palabras", language="spa", version=1, status=Lexicon.Status.READY)

    page = new_page()
    log_in(page, live_server_url, "kyria")
    page.goto(live_server_url + reverse("games:start_lesson", args=[classroom.id]) + "?all=1")
    lexicon = page.get_by_label("Lexicon", exact=True)
    page.get_by_label("Game", exact=True).select_option("grabble")
    expect(lexicon).to_have_value(str(greek.id))
    expect(page.get_by_text("Lexicons in Koine Greek")).to_be_visible()
    expect(lexicon.locator(f'option[value="{spanish.id}"]')).to_be_disabled()

    page.get_by_label("Game", exact=True).select_option("palabras_cortas")
    expect(lexicon).to_have_value(str(spanish.id))
    expect(page.get_by_text("Lexicons in Spanish")).to_be_visible()
    expect(lexicon.locator(f'option[value="{greek.id}"]')).to_be_disabled()
    expect(lexicon.locator('option[value=""]')).to_be_enabled()
