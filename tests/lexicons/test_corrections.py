"""Word and display corrections: repeated upload lines, accent-folded English, Beta Code browse, glosses as prose."""

import csv
import gzip
from pathlib import Path

import pytest
from django.urls import reverse

from lexicons import selectors, services
from lexicons.data import build
from lexicons.models import Entry, Lexicon
from lexicons.normalise import english_key

DATA = Path(__file__).resolve().parents[2] / "lexicons" / "data"


def write(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- one entry per distinct analysis ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_repeated_line_is_one_entry(tmp_path):
    lexicon = Lexicon.objects.create(name="Repetido", language="spa")
    path = write(tmp_path, "w.txt", "gato\n" * 3000 + "perro\n" + "gato\n")
    assert services.import_lexicon(lexicon, "words", [path]) == 2
    lexicon.refresh_from_db()
    assert lexicon.entry_count == 2
    assert sorted(Entry.objects.filter(lexicon=lexicon).values_list("form", flat=True)) == ["gato", "perro"]


@pytest.mark.django_db
def test_each_distinct_analysis_of_a_form_stays_and_repeats_keep_the_highest_frequency(tmp_path):
    lexicon = Lexicon.objects.create(name="Griego", language="grc")
    rows = [
        "form,lemma,pos,parse,gloss,frequency",
        "λόγος,λόγος,N,----NSM-,word,3",
        "λόγος,λόγος,N,----NSM-,word,9",
        "λόγος,λόγος,N,----NSM-,word,",
        "λόγος,λόγος,N,----VSM-,word,1",
    ]
    assert services.import_lexicon(lexicon, "csv", [write(tmp_path, "g.csv", "\n".join(rows) + "\n")]) == 2
    found = Entry.objects.filter(lexicon=lexicon).order_by("frequency")
    assert [(e.parse["case"], e.frequency) for e in found] == [("V", 1.0), ("N", 9.0)]


# --- English folds accents -------------------------------------------------------------------------------------------


def test_the_english_key_folds_accents():
    assert english_key("café") == english_key("cafe") == "CAFE"
    assert english_key("naïve") == "NAIVE"


@pytest.mark.django_db
def test_english_browse_finds_a_word_with_or_without_its_accents(tmp_path):
    lexicon = Lexicon.objects.create(name="Loans", language="eng")
    services.import_lexicon(lexicon, "words", [write(tmp_path, "w.txt", "café\nnaive\n")])
    lexicon.refresh_from_db()
    assert [r["form"] for r in selectors.search(lexicon, "cafe")] == ["café"]
    assert [r["form"] for r in selectors.search(lexicon, "naïve")] == ["naive"]


# --- Greek browse reads Beta Code ------------------------------------------------------------------------------------


@pytest.fixture
def greek(db, tmp_path) -> Lexicon:
    lexicon = Lexicon.objects.create(name="Griego", language="grc")
    rows = "form,lemma,pos,parse,gloss\nλόγον,λόγος,N,----ASM-,word\nλόγος,λόγος,N,----NSM-,word\n"
    services.import_lexicon(lexicon, "csv", [write(tmp_path, "g.csv", rows)])
    lexicon.refresh_from_db()
    return lexicon


def test_greek_browse_reads_a_form_in_beta_code(greek):
    assert [r["form"] for r in selectors.search(greek, "lo/gon")] == ["λόγον"]
    assert [r["form"] for r in selectors.search(greek, "LOGON")] == ["λόγον"]


def test_greek_browse_reads_a_lemma_in_beta_code(greek):
    assert {r["form"] for r in selectors.search(greek, "lo/gos")} == {"λόγος", "λόγον"}


def test_greek_browse_with_text_that_is_not_beta_code_finds_nothing(greek):
    assert selectors.search(greek, "lo/gos!") == []


# --- glosses as prose ------------------------------------------------------------------------------------------------


def test_a_list_of_glosses_is_written_as_prose():
    assert build.gloss_text(["a thorn bush or bramble", "a bath, a liquid measure"]) == (
        "a thorn bush or bramble; a bath, a liquid measure"
    )
    assert build.gloss_text("a word") == "a word"
    assert build.gloss_text(None) == ""


def test_the_bundled_greek_glosses_are_prose():
    with gzip.open(DATA / "grc-morphgnt.tsv.gz", "rt", encoding="utf-8", newline="") as f:
        listed = {row["lemma"] for row in csv.DictReader(f, delimiter="\t") if row["gloss"].startswith("[")}
    assert listed == set()


def test_a_gloss_stored_as_a_list_shows_as_prose():
    assert selectors.gloss_prose("['I am absent', 'I go away, depart']") == "I am absent; I go away, depart"
    assert selectors.gloss_prose('["one", "two"]') == "one; two"
    assert selectors.gloss_prose("[sic] a word") == "[sic] a word"


def test_browse_shows_a_listed_gloss_as_prose(client, student, tmp_path):
    lexicon = Lexicon.objects.create(name="Griego", language="grc")
    row = "form,lemma,pos,parse,gloss\nβάτος,βάτος,N,----NSF-,\"['a thorn bush', 'a bath']\"\n"
    services.import_lexicon(lexicon, "csv", [write(tmp_path, "g.csv", row)])
    client.force_login(student.user)
    page = client.get(reverse("lexicons:browse", args=[lexicon.pk]), {"q": "batos"}).content.decode()
    assert "a thorn bush; a bath" in page
    assert "[&#x27;" not in page


@pytest.mark.django_db
def test_the_migration_folds_the_keys_of_english_entries_imported_before():
    from importlib import import_module

    from django.apps import apps

    lexicon = Lexicon.objects.create(name="Loans", language="eng", version=1)
    spanish = Lexicon.objects.create(name="Préstamos", language="spa", version=1)
    Entry.objects.create(lexicon=lexicon, version=1, form="café", key="CAFÉ")
    Entry.objects.create(lexicon=lexicon, version=1, form="tea", key="TEA")
    Entry.objects.create(lexicon=spanish, version=1, form="año", key="AÑO")
    import_module("lexicons.migrations.0003_english_keys_fold_accents").fold_english_keys(apps, None)
    # only these two lexicons' rows: the bundled ones may be loaded in the same database
    ours = Entry.objects.filter(lexicon__in=[lexicon, spanish])
    assert sorted(ours.values_list("key", flat=True)) == ["AÑO", "CAFE", "TEA"]


@pytest.mark.django_db
def test_lexicon_pages_name_the_language(client, student):
    lexicon = Lexicon.objects.create(name="Griego", language="grc")
    client.force_login(student.user)
    assert "<td>Koine Greek</td>" in client.get(reverse("lexicons:list")).content.decode()
    assert "<p>Koine Greek · " in client.get(reverse("lexicons:browse", args=[lexicon.pk])).content.decode()
