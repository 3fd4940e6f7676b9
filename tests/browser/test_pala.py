"""A teacher starts a Pala lesson in a Spanish class; three students bid and play a round to its scores."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Table
from learning import services
from learning.models import User
from tests.browser.pages import join, log_in

pytestmark = pytest.mark.browser

MAX_MOVES = 80


def my_turn(page) -> bool:
    return page.get_by_test_id("turn-banner").inner_text().startswith("Your turn")


def move(page) -> None:
    """Do one legal thing on the page whose turn it is, and wait for the table to move on."""
    root = page.locator("#table-root")
    before = root.get_attribute("data-seq")
    if page.get_by_test_id("bid-submit").count():
        page.locator("[data-testid=bid-chip][data-colour=red]").click()
        page.get_by_test_id("bid-submit").click()
    elif page.get_by_test_id("win-tie").count():
        page.get_by_test_id("win-tie").click()
    elif page.locator("button.pala-card.is-legal[data-testid=hand-card]").count():
        page.locator("button.pala-card.is-legal[data-testid=hand-card]").first.click()
    else:
        page.locator("[data-testid=mix-option], [data-testid=smear-option]").first.click()
    expect(root).not_to_have_attribute("data-seq", before or "")


def test_three_students_bid_and_play_a_round_of_pala_in_spanish(live_server_url, new_page):
    teacher_user = User.objects.create_user(username="profe", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher_user, "Español 1", "spa")
    students = [new_page(), new_page(), new_page()]
    for page, name in zip(students, ["Lucía", "Mateo", "Sofía"], strict=True):
        join(page, live_server_url, classroom.join_code, name)
    students[2].set_viewport_size({"width": 390, "height": 844})  # a phone

    teacher = new_page()
    log_in(teacher, live_server_url, "profe")
    teacher.goto(f"{live_server_url}/classes/{classroom.id}/")
    teacher.get_by_role("link", name="Start a lesson").click()
    teacher.get_by_label("Game").select_option("pala")
    teacher.get_by_label("Colour names and numbers on the cards").select_option("spa")
    teacher.get_by_label("Rounds (0: play to the rulebook's score)").fill("1")
    teacher.get_by_label("Players per table").fill("3")
    teacher.get_by_role("button", name="Start the lesson").click()
    expect(teacher.locator("h1")).to_have_text("Lesson dashboard")

    table = Table.objects.get()
    for page in students:
        page.wait_for_url(re.compile(rf"/games/tables/{table.id}/$"))
        expect(page.locator("[data-live-status]")).to_have_text("live")
        expect(page.get_by_test_id("hand-card")).to_have_count(14)
    # Spanish colour names on the cards and chips; a name on every card, not only its colour.
    expect(students[0].get_by_test_id("bids")).to_be_visible()
    for page in students:
        names = page.locator("[data-testid=hand-card] .pala-name").all_inner_texts()
        assert len(names) == 14
        assert set(names) <= {"rojo", "azul", "amarillo", "naranja", "verde", "morado"}
    phone = students[2]
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    for _ in range(MAX_MOVES):
        if students[0].get_by_test_id("round-row").count():
            break
        turn = next((p for p in students if my_turn(p)), None)
        if turn is None:
            students[0].wait_for_timeout(200)
            continue
        move(turn)
    for page in students:
        expect(page.get_by_test_id("round-row")).to_have_count(1)
        expect(page.get_by_test_id("game-over")).to_be_visible()
    table.refresh_from_db()
    totals = table.state["totals"]
    for page in students:
        for seat, total in enumerate(totals):
            expect(page.get_by_test_id(f"total-{seat}")).to_contain_text(str(total))
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
