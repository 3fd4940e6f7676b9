"""Abbreviations are not game words: not in the bundled lists, not in a teacher's Hunspell import."""

import csv
import gzip
from pathlib import Path

import pytest

from lexicons.abbreviations import is_abbreviation
from lexicons.loaders import read_records
from lexicons.normalise import english_key, spanish_key

DATA = Path(__file__).resolve().parents[2] / "lexicons" / "data"

# Played or upheld in real games before this list was cleaned (sr, pg, cl …), and more from the es_ES dictionary.
SPANISH_ABBREVIATIONS = (  # noqa: SIM905 - words read best as words
    "sr sra sres pg cl incl inst ej aj gob gro máx erg izq av avda etc pág págs km cm núm tel teléf prof srta aprox "
    "apdo admón ayto dcha izqda hna hnos pta ptas ldo cfr vs pp"
).split()
SPANISH_WORDS = (  # noqa: SIM905 - words read best as words
    "a o y e u ay ca casa casas perro hablar hablamos hoy ley col dom id des ajo grosero máximo mínimo izquierda "
    "avión sobre ejemplo gobierno instante incluso señor señora página teléfono erguir ergo agro agros"
).split()
ENGLISH_ABBREVIATIONS = (  # noqa: SIM905 - words read best as words
    "etc mr mrs dr st inc ltd approx dept govt jr vs pp cm km kg ft mph blvd misc incl esp abbr asst corp hr lb oz "
    "pt qt yd yr mt rd ps pm"
).split()
ENGLISH_WORDS = (  # noqa: SIM905 - words read best as words
    "cafe naive house run fig max ave sec rep brr hmm shh tsk nth the of and"
).split()


def bundled_keys(filename: str, key_of) -> frozenset[str]:
    with gzip.open(DATA / filename, "rt", encoding="utf-8", newline="") as f:
        return frozenset(key_of(row["form"]) for row in csv.DictReader(f, delimiter="\t"))


@pytest.mark.parametrize(
    "stem", ["sr", "pg", "cl", "incl", "inst", "ej", "aj", "gob", "gro", "máx", "erg", "izq", "av"]
)
def test_the_abbreviations_players_went_out_with_are_known(stem):
    assert is_abbreviation(stem, "spa")


@pytest.mark.parametrize("stem", ["casa", "y", "a", "hoy", "col", "dom", "ay", "ajo", "máximo", "id", "ergo"])
def test_spanish_words_are_not_abbreviations(stem):
    assert not is_abbreviation(stem, "spa")


@pytest.mark.parametrize("stem", ["etc.", "DD.HH.", "ADSL", "pH", "iOS", "Educ.ar"])
def test_dots_and_inner_capitals_mark_abbreviations_in_any_language(stem):
    assert is_abbreviation(stem, "")
    assert is_abbreviation(stem, "deu")


def test_vowelless_words_are_words_outside_spanish():
    assert not is_abbreviation("hmm", "eng")
    assert not is_abbreviation("krk", "ces")
    assert not is_abbreviation("Haus", "deu")  # a capital first letter is not an acronym


def test_a_teachers_hunspell_import_leaves_abbreviations_out(tmp_path):
    aff = tmp_path / "es.aff"
    aff.write_text(
        "SET UTF-8\nFLAG UTF-8\nSFX S Y 1\nSFX S 0 s .\n\nSFX G Y 1\nSFX G 0 a .\n\nPFX a Y 1\nPFX a 0 a .\n",
        encoding="utf-8",
    )
    dic = tmp_path / "es.dic"
    dic.write_text("9\ncasa/S\nsr/GS\netc.\nADSL\npg\nincl\nhoy\ny\ngro/Sa\n", encoding="utf-8")
    spanish = {r.form for r in read_records("hunspell", [dic, aff], language="spa")}
    assert spanish == {"casa", "casas", "hoy", "y", "agro", "agros"}  # the prefix makes a word of the stem gro
    other = {r.form for r in read_records("hunspell", [dic, aff], language="und")}
    assert other == spanish | {"sr", "sra", "srs", "pg", "incl", "gro", "gros"}


def test_the_bundled_spanish_list_has_no_abbreviations_and_keeps_common_words():
    keys = bundled_keys("spa-hunspell.tsv.gz", spanish_key)
    assert [word for word in SPANISH_ABBREVIATIONS if spanish_key(word) in keys] == []
    assert [word for word in SPANISH_WORDS if spanish_key(word) not in keys] == []


def test_the_bundled_english_list_has_no_abbreviations_and_keeps_common_words():
    keys = bundled_keys("eng-enable.tsv.gz", english_key)
    assert [word for word in ENGLISH_ABBREVIATIONS if english_key(word) in keys] == []
    assert [word for word in ENGLISH_WORDS if english_key(word) not in keys] == []
