"""Palabra at a live table: a teacher starts a lesson for three students, the hands are arranged through the rules'
own test helper, then every move goes through the real pages — PALABRA, a shave, a word with a wild card taken to
the vote and settled by the teacher's check, a joker — and the scores on every page are the table's."""

import json
import re
import time

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.models import Table
from games.rules import GAMES
from games.services.lessons import start_lesson
from games.services.moves import apply_action
from learning import services
from learning.models import User
from lexicons.models import Entry, Lexicon
from lexicons.normalise import normalise
from tests.browser.pages import join, log_in
from tests.games.rules.test_palabra import PALABRA, arrange

pytestmark = pytest.mark.browser

NAMES = ["Amy", "Ben", "Cleo"]


def english_lexicon() -> Lexicon:
    lexicon = Lexicon.objects.create(name="Tiny English", language="eng", version=1, status="ready")
    Entry.objects.bulk_create(
        Entry(lexicon=lexicon, version=1, form=form, key=normalise(form, "eng")) for form in ("cat", "dog", "tea")
    )
    return lexicon


def start_palabra(base: str, new_page, options: tuple[str, ...] = ()) -> tuple[Table, list, object]:
    """Three students join an English class; the teacher starts Palabra with the tiny lexicon. Returns the table,
    the students' pages in seat order and the teacher's page (on the table)."""
    teacher_user = User.objects.create_user(username="teach", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher_user, "English 1", "eng")
    english_lexicon()
    pages = {}
    for name in NAMES:
        pages[name] = new_page()
        join(pages[name], base, classroom.join_code, name)
    teacher = new_page()
    log_in(teacher, base, "teach")
    teacher.goto(f"{base}/classes/{classroom.id}/")
    teacher.get_by_role("link", name="Start a lesson").click()
    teacher.get_by_label("Game").select_option("palabra")
    teacher.get_by_label("Lexicon").select_option(label="Tiny English")
    for label in options:
        teacher.get_by_label(label).check()
    teacher.get_by_label("Players per table").fill("3")
    teacher.get_by_role("button", name="Start the lesson").click()
    expect(teacher.locator("h1")).to_have_text("Lesson dashboard")
    table = Table.objects.get()
    for page in pages.values():
        page.wait_for_url(re.compile(rf"/games/tables/{table.id}/$"))
    by_seat = {seat.number: pages[seat.student.display_name] for seat in table.seats.select_related("student")}
    teacher.goto(f"{base}/games/tables/{table.id}/")
    return table, [by_seat[s] for s in range(3)], teacher


def arrange_table(table: Table, hands: dict[int, list[str]], **changes) -> dict[int, list[int]]:
    """Deal known hands (seat 0 on turn) straight into the table's state; the pages then reload their snapshot."""
    state = table.state
    ids = arrange(state, hands, turn=0)
    state.update(changes)
    table.state = state
    table.save(update_fields=["state"])
    return ids


def reload(pages) -> None:
    for page in pages:
        page.reload()
        expect(page.locator("[data-live-status]")).to_have_text("live")


def click_cards(page, ids: list[int]) -> None:
    for card in ids:
        page.locator(f"[data-testid=hand-card][data-card-id='{card}']").click()


def expect_scores(pages, scores: list[int]) -> None:
    for page in pages:
        for seat, score in enumerate(scores):
            expect(page.get_by_test_id(f"total-{seat}")).to_have_text(str(score))


def test_three_players_shave_joker_and_vote_with_the_teachers_check(live_server_url, new_page):
    table, (first, second, third), teacher = start_palabra(live_server_url, new_page)
    ids = arrange_table(
        table,
        {0: PALABRA, 1: ["PGY", "RRB", "CG", "AB", "wild", "E", "S"], 2: ["joker", "D", "O", "G", "E", "N", "I"]},
    )
    everyone = [first, second, third, teacher]
    reload(everyone)
    expect(first.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    for page, seat in ((first, 0), (second, 1), (third, 2)):
        shown = page.get_by_test_id("hand-card").evaluate_all("els => els.map(e => Number(e.dataset.cardId))")
        assert sorted(shown) == sorted(ids[seat])  # each page shows its own hand, never another's
    expect(teacher.get_by_test_id("hand-card")).to_have_count(0)
    # Cards are drawn with a shape per colour and stars as ★×3.
    p_card = first.locator(f"[data-testid=hand-card][data-card-id='{ids[0][0]}']")
    expect(p_card).to_contain_text("★×3")
    expect(p_card).to_contain_text("▲")

    # The first player spells PALABRA (always a word: no vote): 12 × 3 × 3 + 70 = 178.
    click_cards(first, ids[0])
    expect(first.get_by_test_id("picked")).to_contain_text("PALABRA")
    expect(first.get_by_test_id("preview")).to_contain_text("worth 178 points")  # the server's preview, before sending
    first.get_by_test_id("do-word").click()
    expect_scores(everyone, [178, 0, 0])
    expect(second.get_by_test_id("count-0")).to_have_text("7")

    # The second player shaves the first's P and R: the word is highlighted, their P and R offered under those letters.
    expect(second.get_by_test_id("word-0")).to_have_class(re.compile("is-target"))
    expect(third.get_by_test_id("word-0")).not_to_have_class(re.compile("is-target"))
    expect(third.get_by_test_id("shave-0-0")).to_have_count(0)  # only the next player may shave the first's word
    expect(second.get_by_test_id("shave-0-2").locator("option")).to_have_count(2)  # no L: only the wild card fits
    second.get_by_test_id("shave-0-0").select_option(str(ids[1][0]))
    second.get_by_test_id("shave-0-5").select_option(str(ids[1][1]))
    second.get_by_test_id("shave-0").click()
    expect_scores(everyone, [151, 27, 0])
    expect(third.get_by_test_id("value-0")).to_have_text("151 points")

    # The second player plays C A + a wild card: the page asks for the wild card's letter before sending.
    c, a, wild = ids[1][2], ids[1][3], ids[1][4]
    click_cards(second, [c, a, wild])
    second.get_by_test_id("do-word").click()
    expect(second.get_by_test_id("plan-note")).to_contain_text("Choose the letter")
    second.get_by_label("Letter for the wild card").select_option("T")
    expect(second.get_by_test_id("picked")).to_contain_text("CAT")
    second.get_by_test_id("do-word").click()

    # The others reject it, the second player insists; the teacher settles it by looking it up: CAT stands (3 + 1 + 0).
    for page in (first, third):
        expect(page.get_by_test_id("pending")).to_contain_text("CAT")
        page.get_by_test_id("do-vote-reject").click()
    second.get_by_test_id("do-insist").click()
    expect(first.get_by_test_id("do-challenge")).to_be_visible()
    teacher.get_by_test_id("do-check").click()
    expect_scores(everyone, [151, 31, 0])
    for page in everyone:  # the verdict is announced to the whole table, not only written in the log
        expect(page.get_by_test_id("announcement")).to_contain_text("The teacher checked CAT")
    expect(third.get_by_test_id("pending")).to_have_count(0)

    # The third player jokers the first's word: its remaining 151 go.
    expect(third.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    expect(third.get_by_test_id("word-0")).to_have_class(re.compile("is-target"))
    third.get_by_test_id("joker-0").check()
    third.get_by_test_id("play-jokers").click()
    expect_scores(everyone, [0, 31, 0])
    expect(second.get_by_test_id("word-0")).to_contain_text("jokered")
    third.get_by_test_id("do-pass").click()
    expect(first.get_by_test_id("turn-banner")).to_contain_text("Your turn")

    table.refresh_from_db()
    assert GAMES["palabra"].scores(table.state).total == [0, 31, 0]
    expect_scores(everyone, table.state["scores"])


def test_a_verdict_overtaken_by_a_heartbeats_snapshot_is_still_announced_and_logged(live_server_url, new_page):
    """A heartbeat's ``hello`` answered after a move's commit and before its broadcast reaches the page brings the new
    state without its events. The broadcast that comes after it must still add them to the log and announce them:
    here the third page's copy of the teacher's verdict is held until its heartbeat has shown the new state."""
    table, (first, second, third), teacher = start_palabra(live_server_url, new_page)
    ids = arrange_table(table, {0: ["C", "A", "T", "E"], 1: ["D", "O", "G"], 2: ["N", "I", "S"]})
    held: list[str] = []
    hold = {"events": False, "route": None}

    def route(ws) -> None:
        server = ws.connect_to_server()
        hold["route"] = ws

        def from_server(message: str | bytes) -> None:
            if hold["events"] and json.loads(message).get("type") == "event":
                held.append(message)
            else:
                ws.send(message)

        server.on_message(from_server)

    third.route_web_socket(re.compile(r"/ws/tables/"), route)
    everyone = [first, second, third, teacher]
    reload(everyone)
    click_cards(first, ids[0][:3])
    first.get_by_test_id("do-word").click()
    for page in (second, third):
        expect(page.get_by_test_id("pending")).to_contain_text("CAT")
        page.get_by_test_id("do-vote-reject").click()
    first.get_by_test_id("do-insist").click()
    expect(third.get_by_test_id("pending")).to_contain_text("CAT")
    log = third.locator("#event-log li")
    expect(log.filter(has_text="insisted")).to_have_count(1)

    hold["events"] = True
    teacher.get_by_test_id("do-check").click()
    expect(teacher.get_by_test_id("announcement")).to_contain_text("The teacher checked CAT")
    # The third page's heartbeat (every 4 s) finds it behind: its snapshot shows the verdict's state, and nothing else.
    expect(third.get_by_test_id("pending")).to_have_count(0, timeout=15_000)
    assert len(held) == 1
    expect(third.get_by_test_id("announcement")).to_be_hidden()
    expect(log.filter(has_text="The teacher checked CAT")).to_have_count(0)

    hold["events"] = False
    hold["route"].send(held.pop())
    expect(third.get_by_test_id("announcement")).to_contain_text("The teacher checked CAT")
    checked = log.filter(has_text="The teacher checked CAT")
    expect(checked).to_have_count(1)
    expect(checked).to_have_class(re.compile("is-last"))  # marked as the last move's, as any move's entries are


def test_the_impatient_timer_counts_down_and_passes_the_player(live_server_url, new_page):
    table, (first, second, third), _teacher = start_palabra(
        live_server_url, new_page, options=("Impatient one-minute timer",)
    )
    arrange_table(table, {0: ["C", "A", "T"], 1: ["D"], 2: ["E"]})
    reload([first, second, third])
    expect(first.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    second.get_by_test_id("do-start_timer").click()
    expect(first.get_by_test_id("timer")).to_contain_text("s left for you")
    on_turn = table.seats.get(number=0).student.display_name
    expect(third.get_by_test_id("timer")).to_contain_text(f"s left for {on_turn}")

    # A minute is long for a test: bring the deadline near, as if the minute had nearly run.
    table.refresh_from_db()
    table.state["timer"]["deadline"] = time.time() + 2
    table.save(update_fields=["state"])
    reload([first, second, third])
    expect(second.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    expect(first.get_by_test_id("timer")).to_have_count(0)
    table.refresh_from_db()
    assert table.moves.order_by("-seq").first().action == {"type": "timer_expired"}
    assert table.state["turn"] == 1


def test_simultaneous_rounds_show_who_is_ready_and_what_you_laid(live_server_url, new_page):
    teacher = User.objects.create_user(username="teach", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher, "English 1", "eng")
    for n in range(6):
        services.join_classroom(classroom.join_code, f"Player {n}")
    lesson = start_lesson(teacher, classroom, "palabra", english_lexicon(), {"simultaneous": True}, 6)
    table = lesson.tables.get()
    users = {seat.number: seat.student.user for seat in table.seats.select_related("student__user")}
    page = new_page()
    client = Client()
    client.force_login(users[0])
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
          "url": live_server_url}]
    )  # fmt: skip
    page.goto(f"{live_server_url}/games/tables/{table.id}/")
    expect(page.get_by_test_id("round")).to_contain_text("Round 1")
    expect(page.get_by_test_id("turn-banner")).to_contain_text("Your turn: round 1")
    page.get_by_test_id("do-pass").click()
    expect(page.get_by_test_id("round")).to_contain_text("You laid: pre-play none; play pass")
    expect(page.get_by_test_id("turn-banner")).not_to_contain_text("Your turn")
    # The other five pass through the services (whose broadcasts stay in this process: the page reloads its
    # snapshot); everything is revealed and the next round starts.
    for seat in range(1, 6):
        apply_action(table.id, users[seat], {"type": "pass"})
    reload([page])
    expect(page.get_by_test_id("round")).to_contain_text("Round 2")
    expect(page.get_by_test_id("do-pass")).to_be_visible()
