"""A teacher starts a Palabras Cortas lesson; two students are sent to their table and play a hand to its scores."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Table
from learning import services
from learning.models import User
from tests.browser.pages import join, log_in

pytestmark = pytest.mark.browser


def my_turn(page) -> bool:
    return page.get_by_test_id("turn-banner").inner_text().startswith("Your turn")


def test_teacher_starts_a_lesson_and_two_students_play_a_hand(live_server_url, new_page):
    teacher_user = User.objects.create_user(username="profe", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher_user, "Español 2", "spa")
    students = [new_page(), new_page()]
    for page, name in zip(students, ["Lucía", "Mateo"], strict=True):
        join(page, live_server_url, classroom.join_code, name)

    teacher = new_page()
    log_in(teacher, live_server_url, "profe")
    teacher.goto(f"{live_server_url}/classes/{classroom.id}/")
    teacher.get_by_role("link", name="Start a lesson").click()
    teacher.get_by_label("Game").select_option("palabras_cortas")
    teacher.get_by_label("Word checking").select_option("challenge")
    teacher.get_by_label("Players per table").fill("2")
    teacher.get_by_role("button", name="Start the lesson").click()
    expect(teacher.locator("h1")).to_have_text("Lesson dashboard")
    expect(teacher.locator("#dashboard-rows tr")).to_have_count(1)

    table = Table.objects.get()
    for page in students:
        page.wait_for_url(re.compile(rf"/games/tables/{table.id}/$"))
        expect(page.locator("[data-live-status]")).to_have_text("live")
        expect(page.get_by_test_id("hand-card")).to_have_count(3)
    first, second = students if my_turn(students[0]) else students[::-1]
    expect(second.get_by_test_id("turn-banner")).to_contain_text("Waiting for")

    # The first player draws, spells a three-card "word" and goes out.
    first.get_by_test_id("stock").click()
    expect(first.get_by_test_id("hand-card")).to_have_count(4)
    for _ in range(3):
        first.locator("button.pc-card[data-testid=hand-card]:not(.is-used)").first.click()
    first.get_by_test_id("go-out").click()
    expect(first.get_by_test_id("turn-banner")).to_contain_text("Waiting for")

    # The second player has a last turn: draw and discard.
    expect(second.get_by_test_id("turn-banner")).to_contain_text("last turn")
    second.get_by_test_id("stock").click()
    second.get_by_test_id("discard").first.click()

    # Review: both say they are ready, and the hand is scored.
    for page in (first, second):
        page.get_by_test_id("ready").click()
    for page in (first, second):
        expect(page.get_by_test_id("hand-scores")).to_have_count(1)
        expect(page.get_by_test_id("scores")).to_contain_text("+10 for longest word")
        expect(page.get_by_test_id("hand-card")).to_have_count(4)  # hand 2 is dealt

    table.refresh_from_db()
    totals = table.state["totals"]
    for page in (first, second):
        for seat, total in enumerate(totals):
            expect(page.get_by_test_id(f"total-{seat}")).to_have_text(str(total))
    expect(teacher.locator("#dashboard-rows")).to_contain_text(f"{max(totals)}")
    expect(teacher.locator("#dashboard-rows")).to_contain_text("Hand 2 of 8")

    # Nobody's page ever showed another player's cards: each shows exactly its own hand.
    for seat, page in enumerate(seat_pages(table, first, second)):
        shown = sorted(
            int(i) for i in page.get_by_test_id("hand-card").evaluate_all("els => els.map(e => e.dataset.cardId)")
        )
        assert shown == sorted(table.state["hands"][seat])


def seat_pages(table: Table, first, second):
    """The two pages in seat order (the first player sits left of the dealer)."""
    first_seat = table.moves.get(seq=1).seat
    return (first, second) if first_seat == 0 else (second, first)
