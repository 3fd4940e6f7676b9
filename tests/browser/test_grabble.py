"""Grabble in the browser. A teacher starts a lesson with a small Greek lexicon; two students lay words with their
parses (one lemma typed in Beta Code, one blank given its letter on the Greek keyboard, one wrong parse refused
with a message), the teacher ends the play, everyone parses each turn in the quiz, the teacher gives partial
credit and finishes, and the pages and the score sheet show the rules' scores. A hint marks the best play on the
board of the player who asked, and nobody else's."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Table
from games.rules import GAMES
from learning import services
from learning.models import User
from tests.browser.pages import join, log_in
from tests.games.test_grabble_table import arrange_racks, greek_lexicon

pytestmark = pytest.mark.browser

NAMES = ("Ἀλέξανδρος", "Βίκη")


def start_grabble(base: str, new_page) -> tuple[Table, list, object]:
    """Two students join a Greek class; the teacher starts Grabble with the tiny Greek lexicon. Returns the table,
    the students' pages in seat order and the teacher's page."""
    User.objects.create_user(username="didaskalos", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(User.objects.get(username="didaskalos"), "Ἑλληνικά", "grc")
    greek_lexicon()
    pages = {}
    for name in NAMES:
        pages[name] = new_page()
        join(pages[name], base, classroom.join_code, name)
    teacher = new_page()
    log_in(teacher, base, "didaskalos")
    teacher.goto(f"{base}/classes/{classroom.id}/")
    teacher.get_by_role("link", name="Start a lesson").click()
    teacher.get_by_label("Game", exact=True).select_option("grabble")
    teacher.get_by_label("Lexicon", exact=True).select_option(label="Tiny Greek")
    teacher.get_by_label("Players per table").fill("2")
    teacher.get_by_role("button", name="Start the lesson").click()
    expect(teacher.locator("h1")).to_have_text("Lesson dashboard")
    table = Table.objects.get()
    for page in pages.values():
        page.wait_for_url(re.compile(rf"/games/tables/{table.id}/$"))
    by_seat = {seat.number: pages[seat.student.display_name] for seat in table.seats.select_related("student")}
    return table, [by_seat[0], by_seat[1]], teacher


def reload(pages) -> None:
    for page in pages:
        page.reload()
        expect(page.locator("[data-live-status]")).to_have_text("live")


def lay(page, tiles: list[int], squares: list[str]) -> None:
    for tile, square in zip(tiles, squares, strict=True):
        page.locator(f"[data-testid=rack-tile][data-tile-id='{tile}']").click()
        page.locator(f"[data-square={square}]").click()


def fill_parse(page, word: str, lemma: str, pos: str, **fields: str) -> None:
    page.get_by_label(f"Lemma of {word}").fill(lemma)
    page.get_by_label(f"Part of speech of {word}").select_option(label=pos)
    for name, value in fields.items():
        page.get_by_label(f"{name} of {word}").select_option(label=value)


def test_two_students_play_parse_and_complete_the_quiz(live_server_url, new_page):
    table, (first, second), teacher = start_grabble(live_server_url, new_page)
    ids = arrange_racks(table, {0: "ΛΟΓΟΣ", 1: ["", "Α"]})
    names = seat_names(table)
    reload([first, second])
    expect(first.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    expect(second.get_by_test_id("turn-banner")).to_contain_text("Waiting for")
    expect(first.locator("[data-square=H8]")).to_contain_text("ἄρχου")
    expect(first.locator("[data-square=A1]")).to_have_text("TW")
    expect(first.get_by_test_id("bag")).to_have_text(f"Bag: {len(table.state['bag'])} tiles")
    # An open game: each sees the other's rack, with the name.
    expect(second.get_by_test_id("rack-0")).to_contain_text(names[0])
    expect(second.get_by_test_id("rack-0").locator(".gr-tile")).to_have_count(5)

    # Seat 0 lays ΛΟΓΟΣ across the centre; the parse form asks for it, the Beta Code lemma shows as Greek.
    lay(first, ids[0], ["H8", "I8", "J8", "K8", "L8"])
    expect(first.get_by_test_id("parse-form")).to_have_count(1)
    fill_parse(first, "ΛΟΓΟΣ", "lo/gos", "noun", case="genitive", number="singular", gender="masculine")
    expect(first.get_by_test_id("lemma-preview")).to_have_text("→ λόγος")
    first.get_by_test_id("play").click()
    expect(first.get_by_test_id("table-error")).to_have_text("ΛΟΓΟΣ: case is wrong.")
    first.get_by_label("case of ΛΟΓΟΣ").select_option(label="nominative")
    first.get_by_test_id("play").click()
    expect(second.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    expect(second.locator("[data-square=J8]")).to_contain_text("Γ")
    # The premiums come once, fixed, covered squares too: a tile on a premium square is drawn without it.
    expect(second.locator("[data-square=L8]")).not_to_have_class(re.compile(r"\bgr-DL\b"))
    expect(second.locator("[data-square=D8]")).to_have_class(re.compile(r"\bgr-DL\b"))

    # Seat 1 makes ΟΣ down from L7 with the blank, choosing Ο on the keyboard.
    second.locator(f"[data-testid=rack-tile][data-tile-id='{ids[1][0]}']").click()
    second.locator("[data-square=L7]").click()
    second.get_by_test_id("keyboard").get_by_role("button", name="Ο", exact=True).click()
    fill_parse(second, "ΟΣ", "o(/s", "relative pronoun", case="nominative", number="singular", gender="masculine")
    expect(second.get_by_test_id("lemma-preview")).to_have_text("→ ὅς")
    second.get_by_test_id("play").click()
    expect(first.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    # The move's message carried only its own row of the score sheet: each page kept the first turn's.
    for page in (first, second):
        expect(page.get_by_test_id("sheet-play")).to_have_count(2)
    expect(first.get_by_test_id("sheet")).to_contain_text("ΛΟΓΟΣ")

    # The teacher ends the play; the quiz goes turn by turn.
    teacher.goto(f"{live_server_url}/games/tables/{table.id}/")
    expect(teacher.locator("[data-live-status]")).to_have_text("live")
    teacher.get_by_role("button", name="End the play and start the quiz").click()
    for page in (first, second):
        expect(page.get_by_test_id("quiz")).to_contain_text("turn 1 of 2")
    fill_parse(first, "ΛΟΓΟΣ", "λογος", "noun", case="nominative", number="singular", gender="masculine")
    first.get_by_test_id("answer").click()
    expect(second.get_by_test_id("answered")).to_contain_text(names[0])
    fill_parse(second, "ΛΟΓΟΣ", "λόγος", "noun", case="accusative", number="singular", gender="masculine")
    second.get_by_test_id("answer").click()
    for page in (first, second):
        expect(page.get_by_test_id("quiz")).to_contain_text("turn 2 of 2")
        # The teaching moment: everyone sees the analysis of the marked turn with its gloss.
        expect(page.get_by_test_id("sheet")).to_contain_text("noun, nominative singular masculine — “word”")
    for page in (first, second):
        fill_parse(page, "ΟΣ", "o(/s", "relative pronoun", case="nominative", number="singular", gender="masculine")
        page.get_by_test_id("answer").click()

    # Review: the teacher gives the second player 5 for their nearly-right parse, then finishes.
    expect(teacher.get_by_test_id("finish")).to_be_visible()
    credit = teacher.get_by_label(f"Credit for {names[1]} on turn 1")
    credit.fill("5")
    credit.locator("xpath=following-sibling::button").click()
    table.refresh_from_db()
    expect(teacher.get_by_test_id("learning-1")).to_have_text(str(5 + table.state["plays"][1]["base"]))
    teacher.get_by_test_id("finish").click()
    for page in (first, second):
        expect(page.get_by_test_id("turn-banner")).to_contain_text("over")

    table.refresh_from_db()
    rules = GAMES["grabble"]
    scores = rules.scores(table.state).total
    learning = rules.scores(table.state).parts["learning"]
    assert table.state["phase"] == "over"
    for page in (first, second, teacher):
        for seat, total in enumerate(scores):
            expect(page.get_by_test_id(f"final-{seat}")).to_have_text(str(total))
            expect(page.get_by_test_id(f"learning-{seat}")).to_have_text(str(learning[seat]))

    # The score sheet, from the link on the table page.
    first.get_by_role("link", name="Score sheet").click()
    expect(first.get_by_test_id("sheet-turn")).to_have_count(2)
    final = first.get_by_test_id("final-totals").locator("td.num")
    expect(final).to_have_text([str(s) for s in scores])


def seat_names(table: Table) -> list[str]:
    return [s.student.display_name for s in table.seats.select_related("student").order_by("number")]


def test_suggestion_teacher_approval_and_exchange(live_server_url, new_page):
    table, (first, second), teacher = start_grabble(live_server_url, new_page)
    ids = arrange_racks(table, {0: "ΑΒΓΔΕ", 1: "ΛΟΓΟΣ"})
    teacher.goto(f"{live_server_url}/games/tables/{table.id}/")
    reload([first, second, teacher])
    names = seat_names(table)

    # The player not on turn suggests a word; the whole table sees it.
    second.get_by_label("Suggested word").fill("λόγος")
    second.get_by_label("Square (optional)").fill("H8")
    second.get_by_role("button", name=f"Suggest to {names[0]}").click()
    for page in (first, teacher):
        expect(page.get_by_test_id("suggestions")).to_contain_text(f"{names[1]}: λόγος at H8")

    # A word the lexicon does not know waits for the teacher, who approves it with a gloss.
    lay(first, ids[0][:2], ["H8", "I8"])
    fill_parse(first, "ΑΒ", "ab", "noun", case="nominative", number="singular", gender="masculine")
    first.get_by_test_id("play").click()
    expect(teacher.get_by_test_id("approval")).to_contain_text("not in the lexicon")
    expect(second.get_by_test_id("turn-banner")).to_contain_text("teacher")
    teacher.get_by_label("Gloss (meaning)").fill("father")
    teacher.get_by_role("button", name="Approve").click()
    expect(second.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    expect(second.locator("[data-square=I8]")).to_contain_text("Β")

    # The next player exchanges two tiles: the arranged short rack is refilled to ten, the two go back in the bag.
    table.refresh_from_db()
    bag = len(table.state["bag"])
    second.get_by_role("button", name="Exchange tiles…").click()
    for tile in ids[1][:2]:
        second.locator(f"[data-testid=rack-tile][data-tile-id='{tile}']").click()
    second.get_by_role("button", name="Exchange 2 tiles").click()
    expect(first.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    expect(second.get_by_test_id("my-rack").get_by_test_id("rack-tile")).to_have_count(10)
    expect(second.get_by_test_id("bag")).to_have_text(f"Bag: {bag - (10 - len(ids[1]))} tiles")


def test_a_hint_marks_the_best_play_on_the_askers_board_only(live_server_url, new_page):
    table, (first, second), _teacher = start_grabble(live_server_url, new_page)
    arrange_racks(table, {0: "ΛΟΓΟΣ"})
    reload([first, second])
    expect(second.get_by_test_id("ask-hint")).to_have_count(0)

    first.get_by_role("button", name="Hint (3 left)").click()
    expect(first.get_by_test_id("hint")).to_contain_text("ΛΟΓΟΣ 26 = 26 points")
    for square, letter in zip(["D8", "E8", "F8", "G8", "H8"], "ΛΟΓΟΣ", strict=True):
        expect(first.locator(f"[data-square={square}]")).to_have_class(re.compile(r"\bis-hinted\b"))
        expect(first.locator(f"[data-square={square}]")).to_contain_text(letter)
    expect(first.get_by_test_id("ask-hint")).to_have_count(0)  # one hint a turn

    # The other player is told a hint was asked for, never what it was.
    expect(second.locator("#event-log")).to_contain_text(f"{seat_names(table)[0]} asked for a hint.")
    expect(second.get_by_test_id("hint")).to_have_count(0)
    expect(second.locator(".is-hinted")).to_have_count(0)
