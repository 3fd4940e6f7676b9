"""Keys per language (``lexicons.normalise``), on worked examples, on properties, and on every bundled Greek form."""

import csv
import gzip
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicons.normalise import (
    default_key,
    english_key,
    greek_key,
    movable_nu_variants,
    normalise,
    spanish_key,
)
from lexicons.services import DATA_DIR

GREEK_CAPITALS = set("ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ")


@pytest.mark.parametrize(
    ("form", "key"),
    [
        ("λόγος", "ΛΟΓΟΣ"),
        ("ἀρχῇ", "ΑΡΧΗ"),
        ("ἦν", "ΗΝ"),
        ("ὁ", "Ο"),
        ("ἡ", "Η"),
        ("ἤ", "Η"),
        ("ἥ", "Η"),
        ("ᾖ", "Η"),
        ("ᾗ", "Η"),
        ("δι’", "ΔΙ"),
        ("κατ’", "ΚΑΤ"),
        ("μεθ'", "ΜΕΘ"),
        ("ἀλλʼ", "ΑΛΛ"),
        ("Ἰησοῦς", "ΙΗΣΟΥΣ"),
        ("προϊστάμενος", "ΠΡΟΙΣΤΑΜΕΝΟΣ"),
    ],
)
def test_greek_key_drops_marks_and_elision(form, key):
    assert greek_key(form) == key


def test_iota_subscript_is_dropped_not_turned_into_a_letter():
    assert len(greek_key("ᾳ")) == 1
    assert "ᾳ".upper() != greek_key("ᾳ")


def test_final_and_medial_sigma_are_the_same_letter():
    assert greek_key("ς") == greek_key("σ") == "Σ"


@pytest.mark.parametrize(
    ("form", "key"),
    [("canción", "CANCION"), ("pingüino", "PINGUINO"), ("año", "AÑO"), ("ÁRBOL", "ARBOL"), ("éxito", "EXITO")],
)
def test_spanish_key_folds_vowels_keeps_enye(form, key):
    assert spanish_key(form) == key


def test_spanish_enye_stays_distinct_from_n():
    assert spanish_key("año") != spanish_key("ano")


def test_english_key_is_upper_case_a_to_z():
    assert english_key("quixotic") == "QUIXOTIC"
    assert english_key("résumé") == "RESUME"


def test_other_languages_get_the_default_key():
    assert normalise("Café", "fra") == default_key("Café") == "CAFE"
    assert normalise("λόγος", "grc") == "ΛΟΓΟΣ"
    assert normalise("año", "spa") == "AÑO"


def test_movable_nu_gives_both_forms():
    assert movable_nu_variants("ἐφανέρωσε(ν)") == ["ἐφανέρωσε", "ἐφανέρωσεν"]
    assert movable_nu_variants("οὕτω(ς)") == ["οὕτω", "οὕτως"]
    assert movable_nu_variants("λόγος") == ["λόγος"]


greek_letters = st.text(
    alphabet=st.characters(min_codepoint=0x0370, max_codepoint=0x03FF, categories=["Ll", "Lu"]), max_size=12
)
greek_with_marks = st.lists(
    st.tuples(
        st.sampled_from("αεηιουωρ"), st.sampled_from(["", "\u0301", "\u0300", "\u0342", "\u0313", "\u0314", "\u0345"])
    )
).map(lambda pairs: unicodedata.normalize("NFC", "".join(a + b for a, b in pairs)))


@settings(max_examples=200)
@given(greek_with_marks)
def test_greek_key_has_no_marks_and_keeps_the_letter_count(text):
    key = greek_key(text)
    assert not any(unicodedata.combining(ch) for ch in unicodedata.normalize("NFD", key))
    assert len(key) == len(unicodedata.normalize("NFD", text)) - sum(
        1 for ch in unicodedata.normalize("NFD", text) if unicodedata.combining(ch)
    )


@settings(max_examples=200)
@given(greek_letters)
def test_greek_key_is_idempotent(text):
    assert greek_key(greek_key(text)) == greek_key(text)


@settings(max_examples=200)
@given(st.text(alphabet="abcdefghijklmnñopqrstuvwxyzáéíóúü", max_size=15))
def test_spanish_keys_use_only_the_palabra_alphabet(word):
    assert set(spanish_key(word)) <= set("ABCDEFGHIJKLMNÑOPQRSTUVWXYZ")


def test_every_bundled_greek_form_has_a_key_of_capitals_only():
    with gzip.open(DATA_DIR / "grc-morphgnt.tsv.gz", "rt", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert len(rows) > 15000
    bad = [row["form"] for row in rows if not set(greek_key(row["form"])) <= GREEK_CAPITALS]
    assert bad == []
    assert all(unicodedata.is_normalized("NFC", row["form"]) for row in rows)
