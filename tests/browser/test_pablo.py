"""Three students play a round of Pablo on phones: the first look, a spy, a match (and a late one), Pablo, the
reveal and the scores; no page ever shows a card its player may not see."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Table
from learning import services
from learning.models import User
from tests.browser.pages import join, log_in
from tests.games.rules.pablo_helpers import playing

pytestmark = pytest.mark.browser
NAMES = ["Lucía", "Mateo", "Sofía"]


def shown_cards(page) -> list[str]:
    """The card faces a page shows in the fields, as ``owner-slot`` keys."""
    return page.locator(".pb-field .pb-face").evaluate_all(
        "els => els.map(e => `${e.dataset.owner}-${e.dataset.slot}`)"
    )


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_three_students_play_a_round_to_the_reveal(live_server_url, new_page):
    teacher_user = User.objects.create_user(username="profe", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher_user, "Español 1", "spa")
    pages = {}
    for name in NAMES:
        page = new_page()
        page.set_viewport_size({"width": 390, "height": 844})
        join(page, live_server_url, classroom.join_code, name)
        pages[name] = page

    teacher = new_page()
    log_in(teacher, live_server_url, "profe")
    teacher.goto(f"{live_server_url}/classes/{classroom.id}/")
    teacher.get_by_role("link", name="Start a lesson").click()
    teacher.get_by_label("Game").select_option("pablo")
    teacher.get_by_label("Card values and scores in words").select_option("spa")
    teacher.get_by_label("Players per table").fill("3")
    teacher.get_by_role("button", name="Start the lesson").click()
    expect(teacher.locator("h1")).to_have_text("Lesson dashboard")

    # A known deal, so that the test can aim: seat 0 draws a jack, seat 1 a five, then a nine and an eight.
    table = Table.objects.get()
    state = playing(
        [["2H", "3H", "4H", "5H"], ["2S", "3S", "4S", "5S"], ["2C", "3C", "4C", "5C"]],
        draw=["8D", "9D", "5D", "JD"],
        number_words="spa",
    )
    state.update(phase="peek", ready=[False] * 3, rng=table.state["rng"], last_move=None)
    Table.objects.filter(pk=table.pk).update(state=state)
    by_seat = {s.number: pages[s.student.display_name] for s in table.seats.select_related("student")}
    for page in by_seat.values():
        page.wait_for_url(re.compile(rf"/games/tables/{table.id}/$"))
        page.reload()
        expect(page.locator("[data-live-status]")).to_have_text("live")
    a, b, c = by_seat[0], by_seat[1], by_seat[2]

    # The first look: two cards each, seen only by their owner, hidden again once ready.
    for seat, page in by_seat.items():
        for slot in (0, 1):
            page.get_by_test_id("act-first_look").click()
            page.get_by_test_id(f"card-{seat}-{slot}").click()
            expect(page.get_by_test_id(f"card-{seat}-{slot}")).to_have_class(re.compile("pb-face"))
        assert sorted(shown_cards(page)) == [f"{seat}-0", f"{seat}-1"]
        page.get_by_test_id("act-ready").click()
    for page in by_seat.values():
        expect(page.locator(".pb-field .pb-face")).to_have_count(0)
    expect(a.get_by_test_id("turn-banner")).to_contain_text("Your turn")

    # Seat 0 draws the jack, discards it and spies on seat 1's last card: only seat 0 sees it.
    a.get_by_test_id("act-draw").click()
    expect(a.get_by_test_id("held")).to_contain_text("J♦")
    expect(a.get_by_test_id("held")).to_contain_text("diez")
    expect(b.get_by_test_id("held")).to_have_count(0)
    a.get_by_test_id("act-discard").click()
    expect(a.get_by_test_id("prompt")).to_contain_text("spy")
    a.get_by_test_id("act-spy").click()
    a.get_by_test_id("card-1-3").click()
    expect(a.get_by_test_id("card-1-3")).to_contain_text("5♠")
    assert shown_cards(b) == []
    assert shown_cards(c) == []
    a.get_by_test_id("act-end_turn").click()

    # Seat 1 draws the five of diamonds and discards it; seat 2 matches it with their own five, first.
    expect(b.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    b.get_by_test_id("act-draw").click()
    b.get_by_test_id("act-discard").click()
    expect(c.get_by_test_id("discard")).to_contain_text("5♦")
    c.get_by_test_id("match").click()
    c.get_by_test_id("card-2-3").click()
    expect(c.get_by_test_id("discard")).to_contain_text("5♣")
    for page in (a, b):
        expect(page.get_by_test_id("matched-by")).to_contain_text(f"{names_by_seat(table)[2]} was first")
        expect(page.get_by_test_id("match")).to_be_disabled()

    # Seat 1 calls Pablo; seats 2 and 0 play their last turns; the cards are revealed and scored.
    b.get_by_test_id("act-call").click()
    for page in (c, a):
        expect(page.get_by_test_id("turn-banner")).to_contain_text("Your turn")
        page.get_by_test_id("act-draw").click()
        page.get_by_test_id("act-discard").click()
    for page in by_seat.values():
        expect(page.get_by_test_id("results")).to_contain_text("Pablo")
        expect(page.locator(".pb-field .pb-face")).to_have_count(11)
        assert no_horizontal_scroll(page)
    table.refresh_from_db()
    assert table.state["phase"] == "reveal"
    assert table.state["results"][0]["points"] == [14, 14, 9]
    expect(a.get_by_test_id("results")).to_contain_text("catorce")


def names_by_seat(table) -> dict[int, str]:
    return {s.number: s.student.display_name for s in table.seats.select_related("student")}
