"""What people do on the pages again and again in the browser tests: log in as a teacher, join a class."""

from playwright.sync_api import Page, expect

PASSWORD = "a-good-password-42"


def log_in(page: Page, base: str, username: str, password: str = PASSWORD) -> None:
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def join(page: Page, base: str, code: str, name: str) -> None:
    """Join the class as a new student and wait until the class page is live."""
    page.goto(f"{base}/join")
    page.get_by_label("Class code").fill(code)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Join").click()
    expect(page.locator("[data-live-status]")).to_have_text("live")
