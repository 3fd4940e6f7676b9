"""The Palabras Cortas solitaire on a phone: a teacher starts it for one student with a tiny Spanish lexicon; the
piles are arranged through the rules' own test helper, then the student taps cards into words, refills the pile a
word emptied and uses every card: the page says they won, and the score is the table's."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Table
from learning import services
from learning.models import User
from lexicons.models import Entry, Lexicon
from lexicons.normalise import normalise
from tests.browser.pages import join, log_in
from tests.games.rules.test_palabras_cortas_solitario import arrange

pytestmark = pytest.mark.browser


def spanish_lexicon() -> Lexicon:
    lexicon = Lexicon.objects.create(name="Tiny Spanish", language="spa", version=1, status="ready")
    Entry.objects.bulk_create(
        Entry(lexicon=lexicon, version=1, form=form, key=normalise(form, "spa")) for form in ("sol", "de", "sal")
    )
    return lexicon


def tap(page, pile: int) -> None:
    page.locator(f"[data-testid=pile][data-pile='{pile}'] [data-testid=top-card]").click()


def test_a_student_plays_the_solitaire_to_a_win_on_a_phone(live_server_url, new_page):
    teacher_user = User.objects.create_user(username="profe", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher_user, "Español 1", "spa")
    spanish_lexicon()
    student = new_page()
    student.set_viewport_size({"width": 390, "height": 844})
    join(student, live_server_url, classroom.join_code, "Lucía")

    teacher = new_page()
    log_in(teacher, live_server_url, "profe")
    teacher.goto(f"{live_server_url}/classes/{classroom.id}/")
    teacher.get_by_role("link", name="Start a lesson").click()
    teacher.get_by_label("Game").select_option("palabras_cortas_solitario")
    teacher.get_by_label("Lexicon").select_option(label="Tiny Spanish")
    teacher.get_by_label("Players per table").fill("1")
    teacher.get_by_role("button", name="Start the lesson").click()
    expect(teacher.locator("h1")).to_have_text("Lesson dashboard")

    table = Table.objects.get()
    student.wait_for_url(re.compile(rf"/games/tables/{table.id}/$"))
    expect(student.get_by_test_id("top-card")).to_have_count(8)

    # S, O, L showing alone on piles 1-3; pile 4 shows D over a face-down E; the other piles are empty.
    table.state = arrange([["S"], ["O"], ["L"], ["E", "D"], [], [], [], []])
    table.save(update_fields=["state"])
    student.reload()
    expect(student.locator("[data-live-status]")).to_have_text("live")
    expect(student.get_by_test_id("top-card")).to_have_count(4)

    for pile in (0, 1, 2):
        tap(student, pile)
    expect(student.get_by_test_id("word-text")).to_have_text("SOL")
    student.get_by_test_id("spell").click()

    # SOL emptied three piles: the page asks for a refill, and pile 4 is the only one with a face-down card.
    expect(student.get_by_test_id("refill-help")).to_contain_text("Pile 1 is empty")
    expect(student.get_by_test_id("sol-score")).to_have_text("8 points")
    student.get_by_test_id("refill-source").click()

    expect(student.get_by_test_id("top-card")).to_have_count(2)
    tap(student, 3)
    tap(student, 0)
    expect(student.get_by_test_id("word-text")).to_have_text("DE")
    student.get_by_test_id("spell").click()

    expect(student.get_by_test_id("result")).to_contain_text("All 5 cards used: you win!")
    expect(student.get_by_test_id("turn-banner")).to_contain_text("The game is over: you won.")
    expect(student.get_by_test_id("sol-words")).to_contain_text("SOL (8)")
    table.refresh_from_db()
    assert table.state["result"] == "won"
    expect(student.get_by_test_id("result")).to_contain_text(f"Score: {table.state['total']} points.")
    # Nothing on the phone is wider than its screen.
    assert student.evaluate("document.documentElement.scrollWidth") <= 390
