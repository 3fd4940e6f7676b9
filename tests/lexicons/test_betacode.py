"""Beta Code → Greek: letters, capitals, breathings, accents, iota subscript, final sigma, NFC output."""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicons.betacode import LETTERS, BetaCodeError, looks_like_beta_code, to_greek
from lexicons.normalise import greek_key


@pytest.mark.parametrize(
    ("beta", "greek"),
    [
        ("lo/gos", "λόγος"),
        ("a)rxh/", "ἀρχή"),
        ("*)abraa/m", "Ἀβραάμ"),
        ("th=| a)rxh=|", "τῇ ἀρχῇ"),
        ("h)=n", "ἦν"),
        ("o(", "ὁ"),
        ("di'", "δι’"),
        ("*)ihsou=s", "Ἰησοῦς"),
        ("*(/ellhn", "Ἕλλην"),
        ("ei)=pen:", "εἶπεν·"),
        ("ti/s;", "τίς;"),
        ("prosfe/rw", "προσφέρω"),
        ("qeo/s", "θεός"),
        ("yuxh/", "ψυχή"),
        ("ce/nos", "ξένος"),
        ("a)i+/dios", "ἀΐδιος"),
    ],
)
def test_known_words(beta, greek):
    assert to_greek(beta) == unicodedata.normalize("NFC", greek)


def test_upper_case_beta_code_means_the_same_letters():
    assert to_greek("LO/GOS") == "λόγος"


def test_final_sigma_only_at_word_end():
    assert to_greek("sws") == "σως"
    assert to_greek("lo/gos kai/") == "λόγος καί"


def test_final_sigma_before_marks_that_follow_it():
    assert to_greek("e)s'") == "ἐς’"


def test_numbered_sigmas_force_the_form():
    assert to_greek("s1") == "σ"
    assert to_greek("los2a") == "λοςα"
    assert to_greek("s3") == "ϲ"


def test_mark_order_does_not_matter():
    assert to_greek("a/)") == to_greek("a)/") == "ἄ"
    assert to_greek("w|=") == to_greek("w=|") == "ῷ"


def test_output_is_nfc():
    out = to_greek("a)rxh=|")
    assert out == unicodedata.normalize("NFC", out)
    assert len(out) == 4


@pytest.mark.parametrize("bad", ["/a", "*", "*/", "lo$gos", "λόγος"])
def test_not_beta_code_is_refused(bad):
    with pytest.raises(BetaCodeError):
        to_greek(bad)


def test_looks_like_beta_code():
    assert looks_like_beta_code("lo/gos")
    assert not looks_like_beta_code("λόγος")
    assert not looks_like_beta_code("/=")


beta_words = st.lists(
    st.tuples(st.sampled_from(sorted(LETTERS)), st.sampled_from(["", ")", "(", "/", "\\", "=", "|", ")/", "(=|"])),
    min_size=1,
    max_size=8,
)


@settings(max_examples=200)
@given(beta_words)
def test_key_of_converted_word_is_its_letters(word):
    beta = "".join(letter + marks for letter, marks in word)
    greek = to_greek(beta)
    assert greek == unicodedata.normalize("NFC", greek)
    expected = "".join(LETTERS[letter] for letter, _ in word).upper()
    assert greek_key(greek) == expected
