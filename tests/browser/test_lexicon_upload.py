"""A teacher uploads lexicons through the browser and follows the import on the progress page."""

import pytest
from playwright.sync_api import expect

from learning.models import User
from lexicons import services
from lexicons.models import Lexicon
from tests.browser.pages import log_in

pytestmark = pytest.mark.browser

AFF = "SET UTF-8\nSFX S Y 1\nSFX S 0 s [aeiou]\n"


@pytest.fixture
def teacher_page(live_server_url, new_page):
    User.objects.create_user(username="profesora", password="a-good-password-42", role=User.Role.TEACHER)
    page = new_page()
    log_in(page, live_server_url, "profesora")
    page.goto(f"{live_server_url}/lexicons/upload/")
    return page


def upload(page, name: str, language: str, format_: str, files: list[dict]) -> None:
    page.get_by_label("Name").fill(name)
    page.get_by_label("Language").fill(language)
    page.get_by_label("Format").select_option(format_)
    page.get_by_label("Files").set_input_files(files)
    page.get_by_role("button", name="Upload and import").click()


def test_hunspell_pair_upload_runs_to_completion(teacher_page):
    upload(
        teacher_page,
        "Mis palabras",
        "spa",
        "hunspell",
        [
            {"name": "es.dic", "mimeType": "text/plain", "buffer": "3\ncasa/S\nreloj\ncanción\n".encode()},
            {"name": "es.aff", "mimeType": "text/plain", "buffer": AFF.encode()},
        ],
    )
    expect(teacher_page.locator("h1")).to_have_text("Importing Mis palabras")
    expect(teacher_page.locator("#import-text")).to_have_text("Done: 4 entries.")
    expect(teacher_page.locator("#import-bar")).to_have_attribute("value", "100")
    lexicon = Lexicon.objects.get(name="Mis palabras")
    assert services.word_list(lexicon).is_word("CASAS")

    teacher_page.get_by_role("link", name="Open the lexicon").click()
    teacher_page.get_by_label("Word or key").fill("cancion")
    teacher_page.keyboard.press("Enter")
    expect(teacher_page.get_by_text("canción").first).to_be_visible()


def test_csv_upload_runs_to_completion_and_a_bad_file_says_which_line(teacher_page, live_server_url):
    csv_text = "form,lemma,pos,gloss\nλόγος,λόγος,N,word\nἀρχή,ἀρχή,N,beginning\n"
    upload(
        teacher_page, "My Greek", "grc", "csv", [{"name": "w.csv", "mimeType": "text/csv", "buffer": csv_text.encode()}]
    )
    expect(teacher_page.locator("#import-text")).to_have_text("Done: 2 entries.")
    teacher_page.get_by_role("link", name="Open the lexicon").click()
    teacher_page.get_by_label("Word or key").fill("ΛΟΓΟΣ")
    teacher_page.keyboard.press("Enter")
    expect(teacher_page.get_by_text("word", exact=True)).to_be_visible()

    teacher_page.goto(f"{live_server_url}/lexicons/upload/")
    bad = "form,lemma,pos,gloss\nλόγος,λόγος,N,word\nἀρχή,ἀρχή,N,beginning,extra\n".encode()
    upload(teacher_page, "Broken", "grc", "csv", [{"name": "bad.csv", "mimeType": "text/csv", "buffer": bad}])
    expect(teacher_page.locator("#import-text")).to_have_text("The import failed.")
    expect(teacher_page.locator("#import-error")).to_contain_text("line 3")
    assert not Lexicon.objects.filter(name="Broken", status=Lexicon.Status.READY).exists()
