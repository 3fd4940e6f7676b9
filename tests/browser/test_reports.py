"""A teacher opens the class report in a real browser, builds it with the progress bar, and sees the words played."""

import pytest
from playwright.sync_api import expect

from games.rules import GAMES
from games.services import lessons
from learning import services
from learning.models import User
from tests.browser.pages import log_in
from tests.games import test_grabble_table as grabble
from tests.learning import encounter_factory as f

pytestmark = pytest.mark.browser


def test_teacher_builds_and_reads_the_class_report(live_server_url, new_page, monkeypatch):
    monkeypatch.setitem(GAMES, f.SLUG, f.RULES)
    teacher = User.objects.create_user(username="kyria", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher, "Greek 101", "grc")
    ana = services.join_classroom(classroom.join_code, "Ἀνδρέας")
    table = f.start_lesson(classroom, [ana], f.make_lexicon())
    f.record(
        table,
        [
            f.played(0, "λόγον", "ΛΟΓΟΝ", "λόγος"),
            f.parsed(0, "ἦν", "ΗΝ", "εἰμί", "V", f.VERB_IMPF, given=f.VERB_IMPF | {"tense": "A"}, wrong=["tense"],
                     kind="quizzed"),
        ],
    )  # fmt: skip

    page = new_page()
    log_in(page, live_server_url, "kyria")
    page.goto(f"{live_server_url}/classes/{classroom.id}/")
    page.get_by_role("link", name="Class report").click()
    expect(page.locator("h1")).to_have_text("Report: Greek 101")
    expect(page.get_by_text("There is no report for this class yet")).to_be_visible()

    page.get_by_role("button", name="Build the report").click()
    expect(page.get_by_role("button", name="Update the report")).to_be_visible()
    expect(page.get_by_test_id("most-missed")).to_contain_text("ἦν")
    expect(page.get_by_test_id("confusions")).to_contain_text("aorist")
    expect(page.get_by_test_id("confusions")).to_contain_text("imperfect")
    expect(page.locator("svg.chart").first).to_be_visible()

    page.get_by_role("link", name="Ἀνδρέας").click()
    expect(page.get_by_test_id("words")).to_contain_text("λόγον")
    expect(page.get_by_test_id("words")).to_contain_text("word")
    expect(page.get_by_test_id("words")).to_contain_text("ἦν")


def test_after_a_finished_grabble_game_the_class_report_shows_the_words_played(live_server_url, new_page):
    """No hand-made records: a real Grabble game through the games service records every word played, parsed
    and quizzed; ending the lesson builds the report the teacher then reads."""
    teacher = User.objects.create_user(username="didaskalos", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher, "Ἑλληνικά", "grc")
    table = grabble.start_grabble(teacher, classroom)
    grabble.quiz_both_turns(grabble.play_two_turns(table), teacher)
    lessons.end_lesson(teacher, table.lesson_id)

    page = new_page()
    log_in(page, live_server_url, "didaskalos")
    page.goto(f"{live_server_url}/classes/{classroom.id}/")
    page.get_by_role("link", name="Class report").click()
    expect(page.get_by_test_id("most-missed")).to_contain_text("λόγος")  # Βίκη gave the genitive in the quiz
    page.get_by_role("link", name="Βίκη").click()
    words = page.get_by_test_id("words")
    expect(words).to_contain_text("λόγος")
    expect(words).to_contain_text("ὅς")
    expect(words).to_contain_text("who, which")
