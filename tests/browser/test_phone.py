"""Every page on a phone (390×844): no horizontal scrolling, and the controls a player or the teacher needs are on
screen. Grabble on a phone: the board fits, a word is typed from a chosen square (Beta Code keys mapped to the rack's
tiles), a tile is dragged from the rack to the board, the rack and Play stay in view while tiles are laid, and the
word waiting for the teacher is drawn on the teacher's board where it was laid.

Screenshots go to the directory named by SCREENSHOTS (when set), to look at by eye."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.models import Table
from games.rules import GAMES
from games.services import lessons
from learning import services
from learning.models import Student, User
from tests.browser.pages import join, log_in
from tests.browser.test_palabra import english_lexicon
from tests.browser.test_palabras_cortas_solitario import spanish_lexicon
from tests.games import test_grabble_table as grabble
from tests.games.test_grabble_table import arrange_racks, greek_lexicon

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("SCREENSHOTS")


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=False)


# The elements that reach past the right edge of the screen (named in a failure).
OVERFLOWING = """[...document.querySelectorAll("body *")]
  .filter((n) => n.getBoundingClientRect().right > innerWidth + 1)
  .slice(0, 8).map((n) => `${n.tagName}.${n.className} ${Math.round(n.getBoundingClientRect().right)}`)"""


def fits(page: Page) -> None:
    """Nothing on the page is wider than the screen."""
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if width[0] > width[1]:
        pytest.fail(f"{page.url} is {width[0]} px wide on a {width[1]} px screen: {page.evaluate(OVERFLOWING)}")


def phone(new_page) -> Page:
    page = new_page()
    page.set_viewport_size(PHONE)
    return page


def teacher_and_class(language: str) -> tuple[User, object]:
    teacher = User.objects.create_user(username="profe", password="a-good-password-42", role=User.Role.TEACHER)
    return teacher, services.create_classroom(teacher, "Clase", language)


def students_join(base: str, new_page, classroom, names) -> list[Page]:
    pages = []
    for name in names:
        page = phone(new_page)
        join(page, base, classroom.join_code, name)
        # Leave the class page: its heartbeat would take the page to its table by itself once the test starts the
        # lesson, and a navigation of its own racing open_table's aborts one of them (net::ERR_ABORTED).
        page.goto("about:blank")
        pages.append(page)
    return pages


def open_table(page: Page, base: str, table: Table) -> None:
    page.goto(f"{base}/games/tables/{table.id}/")
    expect(page.locator("[data-live-status]")).to_have_text("live")


GAME_CASES = [
    # game, language, players, lexicon, options, a control every player sees
    ("palabras_cortas", "spa", 2, None, {}, "[data-testid=hand-card]"),
    ("palabras_cortas_solitario", "spa", 1, spanish_lexicon, {}, ".pc-sol-pile"),
    ("palabra", "eng", 3, english_lexicon, {}, "[data-testid=hand]"),
    ("pala", "spa", 3, None, {}, "[data-testid=hand-card]"),
    ("pablo", "spa", 3, None, {}, "#game button, #game .card"),
]


@pytest.mark.parametrize(("game", "language", "players", "lexicon", "options", "control"), GAME_CASES)
def test_each_game_table_fits_a_phone(live_server_url, new_page, game, language, players, lexicon, options, control):
    teacher, classroom = teacher_and_class(language)
    names = ["Lucía", "Mateo", "Sofía"][:players]
    pages = students_join(live_server_url, new_page, classroom, names)
    ids = [s.id for s in Student.objects.filter(classroom=classroom).order_by("id")]
    lesson = lessons.start_lesson(teacher, classroom, game, lexicon() if lexicon else None, options, [ids])
    table = lesson.tables.get()
    for page in pages:
        open_table(page, live_server_url, table)
        expect(page.get_by_test_id("turn-banner")).not_to_have_text("Loading the table…")
        expect(page.locator(control).first).to_be_visible()
        fits(page)
        # Every player's name and score is in the scores table, none hidden.
        for cell in page.locator("#game table td, #game table th").all():
            assert cell.evaluate("n => getComputedStyle(n).display") != "none"
    shot(pages[0], f"{game}-390")
    pages[0].set_viewport_size({"width": 1280, "height": 800})
    shot(pages[0], f"{game}-1280")


def test_grabble_on_a_phone_typing_dragging_and_the_rack_in_view(live_server_url, new_page):
    teacher, classroom = teacher_and_class("grc")
    pages = students_join(live_server_url, new_page, classroom, ["Ἀλέξανδρος", "Βίκη"])
    ids = [s.id for s in Student.objects.filter(classroom=classroom).order_by("id")]
    table = lessons.start_lesson(teacher, classroom, "grabble", greek_lexicon(), {}, [ids]).tables.get()
    tiles = arrange_racks(table, {0: "ΛΟΓΟΣ", 1: ["", "Α", "Ν"]})
    by_seat = {s.number: s.student.display_name for s in table.seats.select_related("student")}
    first, second = (pages[0], pages[1]) if by_seat[0] == "Ἀλέξανδρος" else (pages[1], pages[0])
    for page in (first, second):
        open_table(page, live_server_url, table)
    expect(first.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    fits(first)
    board = first.get_by_test_id("board").bounding_box()
    assert board["x"] >= 0
    assert board["x"] + board["width"] <= PHONE["width"]
    # The board's tiles stay readable: a square is at least 20 px.
    assert first.locator("[data-square=H8]").bounding_box()["width"] >= 20
    shot(first, "grabble-390-start")

    # Click H8 and type λογος in Beta Code: the tiles go across from H8; the rack and Play stay in view.
    first.locator("[data-square=H8]").click()
    expect(first.locator("[data-square=H8]")).to_have_class(re.compile(r"\bis-cursor\b"))
    first.keyboard.type("logos")
    for square, letter in zip(["H8", "I8", "J8", "K8", "L8"], "ΛΟΓΟΣ", strict=True):
        expect(first.locator(f"[data-square={square}]")).to_contain_text(letter)
    expect(first.get_by_test_id("play")).to_have_text("Play ΛΟΓΟΣ")
    expect(first.get_by_test_id("play")).to_be_in_viewport()
    expect(first.get_by_test_id("my-rack")).to_be_in_viewport()
    expect(first.get_by_test_id("move-score")).to_have_text(re.compile(r"^ΛΟΓΟΣ \d+ = \d+ points$"))
    fits(first)
    shot(first, "grabble-390-typed")
    # Backspace takes the last back; typing puts it again.
    first.keyboard.press("Backspace")
    expect(first.locator("[data-square=L8]")).not_to_contain_text("Σ")
    first.keyboard.type("s")
    expect(first.locator("[data-square=L8]")).to_contain_text("Σ")

    # Parse it lower down: the Play button stays on screen while scrolling to the form.
    first.get_by_label("Lemma of ΛΟΓΟΣ").fill("λόγος")
    first.get_by_label("Part of speech of ΛΟΓΟΣ").select_option(label="noun")
    for name, value in {"case": "nominative", "number": "singular", "gender": "masculine"}.items():
        first.get_by_label(f"{name} of ΛΟΓΟΣ").select_option(label=value)
    expect(first.get_by_test_id("play")).to_be_in_viewport()
    shot(first, "grabble-390-parse")
    first.get_by_test_id("play").click()
    expect(second.get_by_test_id("turn-banner")).to_contain_text("Your turn")

    # The second player shuffles the rack, drags the Ν onto K9 below the Ο (only the placement matters here), drags
    # it back to the rack, then drags it before the first rack tile to reorder the rack.
    shuffle_before = second.get_by_test_id("rack-tile").evaluate_all("els => els.map(e => e.dataset.tileId)")
    second.get_by_test_id("shuffle").click()
    after = second.get_by_test_id("rack-tile").evaluate_all("els => els.map(e => e.dataset.tileId)")
    assert sorted(after) == sorted(shuffle_before)
    nu = second.locator(f"[data-testid=rack-tile][data-tile-id='{tiles[1][2]}']")
    nu.drag_to(second.locator("[data-square=K9]"))
    expect(second.locator("[data-square=K9]")).to_contain_text("Ν")
    expect(second.get_by_test_id("rack-tile")).to_have_count(2)
    expect(second.get_by_test_id("play")).to_be_in_viewport()
    # Dragging it back to the rack takes it back.
    second.locator("[data-square=K9] .gr-tile").drag_to(second.get_by_test_id("my-rack"))
    expect(second.get_by_test_id("rack-tile")).to_have_count(3)
    # Reorder: drag the Ν before the first tile of the rack.
    first_tile = second.get_by_test_id("rack-tile").first
    nu.drag_to(first_tile)
    expect(second.get_by_test_id("rack-tile").first).to_have_attribute("data-tile-id", str(tiles[1][2]))
    fits(second)
    shot(second, "grabble-390-second")


def test_the_teacher_sees_the_word_waiting_on_the_board_and_the_dashboard_fits(live_server_url, new_page):
    teacher, classroom = teacher_and_class("grc")
    pages = students_join(live_server_url, new_page, classroom, ["Ἀλέξανδρος", "Βίκη"])
    ids = [s.id for s in Student.objects.filter(classroom=classroom).order_by("id")]
    lesson = lessons.start_lesson(teacher, classroom, "grabble", greek_lexicon(), {}, [ids])
    table = lesson.tables.get()
    arrange_racks(table, {0: "ΑΒΓΔΕ"})
    player = {s.number: s.student.display_name for s in table.seats.select_related("student")}[0]
    first = pages[0] if player == "Ἀλέξανδρος" else pages[1]
    open_table(first, live_server_url, table)
    first.locator("[data-square=H8]").click()
    first.keyboard.type("ab")
    first.get_by_label("Lemma of ΑΒ").fill("ab")
    first.get_by_label("Part of speech of ΑΒ").select_option(label="noun")
    for name, value in {"case": "nominative", "number": "singular", "gender": "masculine"}.items():
        first.get_by_label(f"{name} of ΑΒ").select_option(label=value)
    first.get_by_test_id("play").click()
    expect(first.get_by_test_id("turn-banner")).to_contain_text("teacher")

    desk = phone(new_page)
    log_in(desk, live_server_url, "profe")
    open_table(desk, live_server_url, table)
    expect(desk.get_by_test_id("approval")).to_contain_text("not in the lexicon")
    for square, letter in (("H8", "Α"), ("I8", "Β")):
        expect(desk.locator(f"[data-square={square}] .gr-tile.is-pending")).to_contain_text(letter)
    fits(desk)
    shot(desk, "grabble-390-teacher")
    desk.set_viewport_size({"width": 1280, "height": 800})
    shot(desk, "grabble-1280-teacher")
    desk.set_viewport_size(PHONE)

    # The dashboard on a phone: every player's name, score and Remove button.
    desk.goto(f"{live_server_url}/games/lessons/{lesson.id}/")
    expect(desk.locator("[data-live-status]")).to_have_text("live")
    for name in ("Ἀλέξανδρος", "Βίκη"):
        expect(desk.locator("#dashboard-rows")).to_contain_text(name)
    for button in desk.locator("#dashboard-rows").get_by_role("button", name="Remove").all():
        expect(button).to_be_visible()
    expect(desk.locator("#dashboard-rows").get_by_role("button", name="Remove")).to_have_count(2)
    fits(desk)
    shot(desk, "dashboard-390")
    desk.goto(f"{live_server_url}/classes/{classroom.id}/")
    fits(desk)
    expect(desk.locator("#roster").get_by_text("Manage").first).to_be_visible()
    shot(desk, "class-390")


def test_reports_fit_a_phone(live_server_url, new_page):
    teacher = User.objects.create_user(username="didaskalos", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher, "Ἑλληνικά", "grc")
    table = grabble.start_grabble(teacher, classroom)
    grabble.quiz_both_turns(grabble.play_two_turns(table), teacher)
    lessons.end_lesson(teacher, table.lesson_id)
    assert GAMES["grabble"]

    page = phone(new_page)
    log_in(page, live_server_url, "didaskalos")
    page.goto(f"{live_server_url}/classes/{classroom.id}/")
    page.get_by_role("link", name="Class report").click()
    expect(page.get_by_test_id("most-missed")).to_contain_text("λόγος")
    fits(page)
    expect(page.get_by_test_id("most-missed").get_by_role("columnheader", name="Meaning")).to_be_visible()
    shot(page, "class-report-390")
    page.get_by_role("link", name="Βίκη").click()
    expect(page.get_by_test_id("words")).to_contain_text("λόγος")
    fits(page)
    shot(page, "my-words-390")
