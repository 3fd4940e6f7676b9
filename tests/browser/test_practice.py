"""A student's practice game against robots, in the browser: started from the class page, the robot plays (in a
thread of the server, after its delay), "Show me a move" plays one for the student, and the game is resumed after a
reload and from the class page."""

import pytest
from playwright.sync_api import expect

from games.models import Move, Table
from learning import services
from learning.models import User
from tests.browser.conftest import asgi_server
from tests.browser.pages import join

pytestmark = pytest.mark.browser


def test_a_practice_game_against_a_robot_is_played_and_resumed(
    browser, new_page, transactional_db, django_db_blocker, settings
):
    settings.ROBOTS_RUN = "thread"  # the robots of this test's own server act as in development
    settings.ROBOT_DELAY_MIN = settings.ROBOT_DELAY_MAX = 0.2
    teacher = User.objects.create_user(username="profe", password="a-good-password-42", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher, "Español 1", "spa")
    with asgi_server(django_db_blocker) as base:
        page = new_page()
        join(page, base, classroom.join_code, "Lucía")
        expect(page.locator("#practice-card")).to_contain_text("Practice against robots")
        page.get_by_test_id("practice-game").select_option("pablo")
        page.get_by_test_id("practice-robots").select_option("1")
        page.get_by_test_id("practice-level").select_option("steady")
        page.get_by_test_id("practice-start").click()
        expect(page.locator("h1")).to_contain_text("Pablo")
        table = Table.objects.get(lesson__practice=True)
        assert page.url.endswith(f"/games/tables/{table.id}/")
        # The robot takes its first look at its cards on its own, a moment later: two looks, then ready (waited for
        # up to 20 s: a loaded machine starts the robot's thread late). Until it is ready, the move shown to the
        # student races the robot's next one and is refused as decided on a table that has since changed.
        for _ in range(200):
            if Table.objects.get(pk=table.pk).state["ready"][1]:
                break
            page.wait_for_timeout(100)
        assert Table.objects.get(pk=table.pk).state["ready"][1]
        assert Move.objects.filter(table=table, seat=1, actor__isnull=True).exists()
        # Stuck? A robot shows the student a move (played as hers).
        before = Table.objects.get(pk=table.pk).version
        # The form posts, the server plays the move, and the table page comes back: wait for that page, not the
        # heading of the one it replaces.
        with page.expect_navigation():
            page.get_by_test_id("show-move").click()
        expect(page.locator("h1")).to_contain_text("Pablo")
        assert Move.objects.filter(table=table, seat=0, actor__username__isnull=False).exists()
        assert Table.objects.get(pk=table.pk).version > before
        # Resumed after a reload, and from the class page.
        version = Table.objects.get(pk=table.pk).version
        page.reload()
        expect(page.get_by_test_id("turn-banner")).not_to_have_text("Loading the table…")
        page.goto(f"{base}/classes/{classroom.id}/")
        page.get_by_test_id("practice-resume").click()
        expect(page.locator("h1")).to_contain_text("Pablo")
        expect(page.get_by_test_id("turn-banner")).not_to_have_text("Loading the table…")
        assert Table.objects.get(pk=table.pk).version >= version
        assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
