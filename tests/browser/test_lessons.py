"""Lessons that last, in the browser: a Grabble game kept at the end of a lesson, resumed in the class's next lesson
and finished with its quiz; a student who joins late, seated by the teacher at a Palabras Cortas table and dealt in
at the next hand."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Table
from games.services import lessons, moves
from learning import services
from learning.models import Student, User
from tests.browser.pages import join, log_in
from tests.browser.test_grabble import fill_parse, lay, reload, start_grabble
from tests.games.conftest import seated
from tests.games.test_grabble_table import arrange_racks

pytestmark = pytest.mark.browser


def test_a_kept_grabble_game_resumes_in_the_next_lesson_and_ends_with_its_quiz(live_server_url, new_page):
    table, (first, second), teacher = start_grabble(live_server_url, new_page)
    ids = arrange_racks(table, {0: "ΛΟΓΟΣ"})
    reload([first, second])
    lay(first, ids[0], ["H8", "I8", "J8", "K8", "L8"])
    fill_parse(first, "ΛΟΓΟΣ", "lo/gos", "noun", case="nominative", number="singular", gender="masculine")
    first.get_by_test_id("play").click()
    expect(second.get_by_test_id("turn-banner")).to_contain_text("Your turn")

    # The bell rings: the teacher keeps the game for next time, and the confirmation says what happens to it.
    teacher.get_by_test_id("end-lesson").click()
    expect(teacher.locator("#end-lesson-form")).to_contain_text("Keep it for the next lesson")
    expect(teacher.locator("#end-lesson-form")).to_contain_text("the quiz")
    teacher.get_by_test_id("plan-1-keep").check()
    teacher.get_by_test_id("end-lesson-confirm").click()
    expect(teacher.locator(".messages")).to_contain_text("1 game is kept for the next lesson")
    for page in (first, second):
        expect(page.get_by_test_id("turn-banner")).to_contain_text("kept for the next lesson")
    table.refresh_from_db()
    assert table.status == Table.Status.KEPT
    state = table.state

    # The next lesson: the kept game resumes where it was, with the same players.
    expect(teacher.locator("#lesson-card")).to_contain_text("1 game kept from the last lesson")
    teacher.get_by_role("link", name="Start a lesson").click()
    teacher.get_by_label("Game", exact=True).select_option("grabble")
    teacher.get_by_label("Lexicon", exact=True).select_option(label="Tiny Greek")
    teacher.get_by_label("Players per table").fill("2")
    teacher.get_by_role("button", name="Start the lesson").click()
    expect(teacher.locator("h1")).to_have_text("Lesson dashboard")
    table.refresh_from_db()
    assert (table.status, table.state, table.carried_from_id is not None) == (Table.Status.PLAYING, state, True)
    expect(second.get_by_test_id("turn-banner")).to_contain_text("Your turn")

    # The teacher ends the play; the quiz runs for the turn played, and the game ends with the rules' scores.
    teacher.goto(f"{live_server_url}/games/tables/{table.id}/")
    expect(teacher.locator("[data-live-status]")).to_have_text("live")
    teacher.get_by_role("button", name="End the play and start the quiz").click()
    for page in (first, second):
        expect(page.get_by_test_id("quiz")).to_contain_text("turn 1 of 1")
        fill_parse(page, "ΛΟΓΟΣ", "λόγος", "noun", case="nominative", number="singular", gender="masculine")
        page.get_by_test_id("answer").click()
    expect(teacher.get_by_test_id("finish")).to_be_visible()
    teacher.get_by_test_id("finish").click()
    for page in (first, second):
        expect(page.get_by_test_id("turn-banner")).to_contain_text("over")
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert table.state["phase"] == "over"

    # The archive lists both lessons; the replay opens on the deal.
    teacher.goto(f"{live_server_url}/games/classes/{table.lesson.classroom_id}/lessons/")
    expect(teacher.locator(".archive-lesson")).to_have_count(2)
    teacher.get_by_test_id(f"replay-{table.id}").first.click()
    expect(teacher.get_by_test_id("replay-move")).to_have_text("The deal.")
    expect(teacher.get_by_test_id("replay-step")).to_have_text(f"0 / {table.version}")
    # (The racks were arranged by hand above, outside the move log, so this game's later steps cannot be replayed
    # from its seed: the replay of every step is tested on games played only through the log.)


def finish_the_hand(table: Table) -> None:
    """The two players at the table play hand 1 to its end (the first goes out with three cards, the other
    discards, both are ready): the services, as their pages would."""
    users = seated(table)
    table.refresh_from_db()
    first = table.state["turn"]
    moves.apply_action(table.id, users[first], {"type": "draw_stock"})
    table.refresh_from_db()
    hand = table.state["hands"][first]
    moves.apply_action(table.id, users[first], {"type": "go_out", "words": [hand[:3]], "card": hand[3]})
    table.refresh_from_db()
    second = table.state["turn"]
    moves.apply_action(table.id, users[second], {"type": "draw_stock"})
    table.refresh_from_db()
    moves.apply_action(table.id, users[second], {"type": "discard", "card": table.state["hands"][second][0]})
    for seat in (0, 1):
        moves.apply_action(table.id, users[seat], {"type": "ready"})


def test_a_late_joiner_is_seated_at_a_palabras_cortas_table_and_dealt_in_at_the_next_hand(live_server_url, new_page):
    maestra = User.objects.create_user(username="maestra", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(maestra, "Español 2", "spa")
    for name in ("Lucía", "Mateo"):
        services.join_classroom(classroom.join_code, name)
    lesson = lessons.start_lesson(maestra, classroom, "palabras_cortas", None, {"checking": "challenge"}, 2)
    table = lesson.tables.get()

    late = new_page()
    join(late, live_server_url, classroom.join_code, "Sofía")
    teacher = new_page()
    log_in(teacher, live_server_url, "maestra")
    teacher.goto(f"{live_server_url}/games/lessons/{lesson.id}/")
    waiting = teacher.get_by_test_id("waiting-list")
    expect(waiting).to_contain_text("Sofía")
    sofia = Student.objects.get(display_name="Sofía")
    expect(teacher.get_by_test_id(f"seat-choice-{sofia.id}")).to_contain_text("table 1, in a new seat")
    teacher.get_by_test_id(f"seat-{sofia.id}").click()
    expect(teacher.locator(".messages")).to_contain_text("The student is seated.")

    # Her class page takes her to the table; she sits out the hand being played.
    late.wait_for_url(re.compile(rf"/games/tables/{table.id}/$"))
    expect(late.locator("[data-live-status]")).to_have_text("live")
    expect(late.get_by_test_id("count-2")).to_have_text("0")
    expect(late.get_by_test_id("hand-card")).to_have_count(0)

    # The hand ends; the next is dealt to three, her included.
    finish_the_hand(table)
    table.refresh_from_db()
    assert table.state["hand_number"] == 2
    size = len(table.state["hands"][2])
    assert size > 0
    expect(late.get_by_test_id("hand-card")).to_have_count(size, timeout=10_000)
