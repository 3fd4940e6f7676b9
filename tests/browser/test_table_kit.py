"""What the renderer kit does on every table page, shown on Palabras Cortas: a paused table disables every control
and says so until it is resumed; a double click sends one action; "What happened" is rebuilt from the move log after a
reload, each player seeing only their own cards; the game-over view names the winners with the final scores and their
parts; a player the teacher takes out of the game is told so and left with no control."""

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from games.models import Table
from games.services.lessons import start_lesson
from learning import services
from learning.models import User
from tests.games.test_palabras_cortas_table import play_first_hand

pytestmark = pytest.mark.browser


def logged_in(page: Page, base: str, user: User) -> Page:
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": base,
            }
        ]
    )
    return page


@pytest.fixture
def cortas(live_server_url):
    teacher = User.objects.create_user(username="profe", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher, "Español 2", "spa")
    for name in ("Lucía", "Mateo"):
        services.join_classroom(classroom.join_code, name)
    lesson = start_lesson(teacher, classroom, "palabras_cortas", None, {"checking": "challenge"}, 2)
    table = lesson.tables.get()
    users = {s.number: s.student.user for s in table.seats.select_related("student__user")}
    return teacher, lesson, table, users


def open_table(new_page, base: str, user: User, table: Table) -> Page:
    page = logged_in(new_page(), base, user)
    page.goto(f"{base}/games/tables/{table.id}/")
    expect(page.locator("[data-live-status]")).to_have_text("live")
    return page


def test_pause_disables_every_control_and_resume_enables_them_again(live_server_url, new_page, cortas):
    teacher, lesson, table, users = cortas
    turn = table.state["turn"]
    player = open_table(new_page, live_server_url, users[turn], table)
    other = open_table(new_page, live_server_url, users[1 - turn], table)
    expect(player.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    expect(player.get_by_test_id("stock")).to_be_enabled()

    dashboard = logged_in(new_page(), live_server_url, teacher)
    dashboard.on("dialog", lambda dialog: dialog.accept())
    dashboard.goto(f"{live_server_url}/games/lessons/{lesson.id}/")
    name = users[turn].student.display_name
    expect(dashboard.get_by_test_id("row-state")).to_have_text(f"{name} to play")
    dashboard.get_by_role("button", name="Pause", exact=True).click()

    expect(player.get_by_test_id("turn-banner")).to_contain_text("paused")
    expect(player.get_by_test_id("turn-banner")).not_to_contain_text("Your turn")
    expect(player.get_by_test_id("stock")).to_be_disabled()
    for page in (player, other):
        expect(page.locator("#game fieldset.kit-frame")).to_have_attribute("disabled", "")
        assert page.locator("#game button:enabled, #game input:enabled, #game select:enabled").count() == 0

    dashboard.get_by_role("button", name="Resume", exact=True).click()
    expect(player.get_by_test_id("turn-banner")).to_contain_text("Your turn")
    expect(player.get_by_test_id("stock")).to_be_enabled()
    expect(player.get_by_test_id("table-error")).to_be_hidden()

    # The teacher takes the other player out: they are told so, and no control is left on their page.
    dashboard.get_by_role("button", name="Remove").nth(1 - turn).click()
    expect(other.get_by_test_id("removed")).to_contain_text("taken you out")
    assert other.locator("#game button, #game input, #game select").count() == 0


def test_a_double_click_sends_one_action_and_the_log_is_rebuilt_after_a_reload(live_server_url, new_page, cortas):
    _, _, table, users = cortas
    turn = table.state["turn"]
    player = open_table(new_page, live_server_url, users[turn], table)
    player.get_by_test_id("stock").dblclick()
    expect(player.get_by_test_id("hand-card")).to_have_count(4)
    expect(player.get_by_test_id("turn-banner")).to_contain_text("discard")
    player.wait_for_timeout(500)
    expect(player.get_by_test_id("table-error")).to_be_hidden()
    assert table.moves.count() == 2  # the deal and one draw

    table.refresh_from_db()
    drawn = next(ev for ev in table.moves.get(seq=1).events if ev["type"] == "draw")["_secret"]["card"]["letters"]
    player.reload()
    expect(player.locator("[data-live-status]")).to_have_text("live")
    log = player.locator("#event-log")
    expect(log).to_contain_text(f"You drew from the stock ({drawn}).")
    expect(log).to_contain_text("You were dealt")
    expect(log.locator("li.is-last")).to_contain_text("You drew from the stock")
    expect(player.get_by_test_id("last-move")).to_contain_text("You")

    other = open_table(new_page, live_server_url, users[1 - turn], table)
    name = users[turn].student.display_name
    other_log = other.locator("#event-log")
    expect(other_log).to_contain_text(f"{name} drew from the stock.")
    expect(other_log).not_to_contain_text(f"({drawn})")


def test_the_game_over_view_names_the_winners_with_the_final_scores(live_server_url, new_page, cortas):
    teacher, lesson, table, users = cortas
    table.state["hand_number"] = 8  # the last hand of the game
    table.save(update_fields=["state"])
    play_first_hand(table)
    assert table.state["phase"] == "finished"
    totals = table.state["totals"]
    best = max(totals)
    winners = [users[s].student.display_name for s, t in enumerate(totals) if t == best]
    page = open_table(new_page, live_server_url, users[0], table)
    expect(page.get_by_test_id("winners")).to_contain_text(" and ".join(winners))
    expect(page.get_by_test_id("turn-banner")).to_contain_text("The game is over")
    for seat, total in enumerate(totals):
        expect(page.get_by_test_id(f"total-{seat}")).to_have_text(str(total))
    expect(page.locator("[data-testid^=part-]").first).to_be_visible()
    expect(page.get_by_test_id("winner-badge")).to_have_count(len(winners))
    assert page.locator("#game button:enabled").count() == 0

    dashboard = logged_in(new_page(), live_server_url, teacher)
    dashboard.goto(f"{live_server_url}/games/lessons/{lesson.id}/")
    verb = "wins" if len(winners) == 1 else "win"
    expect(dashboard.get_by_test_id("row-state")).to_have_text(f"Game over: {' and '.join(winners)} {verb}")
