"""Grabble's previews: what a play would form and score, and the Greek of a lemma typed in Beta Code, answered by the
rules (the page computes none of it), checked as a move is and never stored."""

import json
import unicodedata

import pytest

from games.engine import AppError
from games.rules.grabble import RULES
from games.rules.grabble.parses import vocabulary
from lexicons import morphology
from tests.games.rules.test_grabble import CTX, across, logos, new, tiles_at, with_logos

# Beta Code as students type it, with the Greek the preview must show: elision, breathings, accents, iota
# subscript, diaeresis, capitals, final and forced sigmas, the raised dot and the question mark.
BETA_CODE = [
    ("lo/gos", "λόγος"),
    ("o(/s", "ὅς"),
    ("a)ll'", "ἀλλ’"),
    ("ou)k:", "οὐκ·"),
    ("ti;", "τι;"),
    ("ti/s;", "τίς;"),
    ("a)/|dhs", "ᾄδης"),
    ("*)abraa/m", "Ἀβραάμ"),
    ("*(ihsou=s", "Ἱησοῦς"),
    ("pai+di/on", "παϊδίον"),
    ("lo/gos1", "λόγοσ"),
    ("kai\\", "καὶ"),
    ("e)n a)rxh=|", "ἐν ἀρχῇ"),
]


def play_preview(state, seat, tiles, parses=None):
    action = {"type": "play", "tiles": tiles} | ({"parses": parses} if parses is not None else {})
    return RULES.preview(state, seat, action, CTX)


def test_a_play_preview_gives_the_words_their_scores_the_bonus_and_the_total_from_tiles_only():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΣ", across("H8", 5))
    before = json.dumps(state, sort_keys=True)
    result = play_preview(state, seat, tiles)
    assert result["words"] == [{"word": "ΛΟΓΟΣ", "squares": across("H8", 5), "score": 22}]
    assert (result["bonus"], result["total"], result["lemmas"]) == (0, 22, [])
    assert json.dumps(state, sort_keys=True) == before


def test_a_play_preview_scores_the_cross_words_as_the_play_will():
    state, _placer = with_logos()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "Ο", ["L7"])
    result = play_preview(state, seat, tiles)
    assert [w["word"] for w in result["words"]] == ["ΟΣ"]
    after, _ = RULES.apply(state, seat, {"type": "play", "tiles": tiles, "parses": [os_parse()]}, CTX)
    assert result["total"] == after["plays"][-1]["base"]


def os_parse():
    return {"word": "ΟΣ", "lemma": "o(/s", "pos": "RR", "parse": {"case": "N", "number": "S", "gender": "M"}}


def test_a_play_preview_refuses_what_the_play_would_refuse_with_the_rules_words():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟ", ["H8", "J8"])
    with pytest.raises(AppError) as err:
        play_preview(state, seat, tiles)
    assert err.value.code == "bad_placement"
    assert "gap" in err.value.message


def test_a_preview_is_for_the_player_on_turn_only():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΣ", across("H8", 5))
    with pytest.raises(AppError) as err:
        play_preview(state, 1 - seat, tiles)
    assert err.value.code == "not_your_turn"


def test_a_play_preview_does_not_check_the_parses_yet():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΣ", across("H8", 5))
    result = play_preview(state, seat, tiles, [{"word": "ΛΟΓΟΣ", "lemma": "lo/gos"}])
    assert result["lemmas"] == [{"word": "ΛΟΓΟΣ", "lemma": "lo/gos", "beta_code": True, "greek": "λόγος"}]


@pytest.mark.parametrize(("typed", "greek"), BETA_CODE)
def test_a_lemma_typed_in_beta_code_is_previewed_in_greek(typed, greek):
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΣ", across("H8", 5))
    (lemma,) = play_preview(state, seat, tiles, [{"word": "ΛΟΓΟΣ", "lemma": typed}])["lemmas"]
    assert (lemma["greek"], lemma["beta_code"]) == (greek, True)


def test_a_lemma_in_greek_is_itself_and_text_that_is_neither_is_told():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΣ", across("H8", 5))
    lemmas = play_preview(state, seat, tiles, [{"word": "ΛΟΓΟΣ", "lemma": "λόγος"}, {"word": "ΛΟΓΟΣ", "lemma": "lo/"}])
    assert (lemmas["lemmas"][0]["greek"], lemmas["lemmas"][0]["beta_code"]) == ("λόγος", False)
    assert lemmas["lemmas"][1]["beta_code"]
    assert lemmas["lemmas"][1]["greek"] == unicodedata.normalize("NFC", "λο\u0301")
    lemmas = play_preview(state, seat, tiles, [{"word": "ΛΟΓΟΣ", "lemma": "lo#gos"}])["lemmas"]
    assert lemmas[0]["greek"] is None


def test_the_quiz_answer_previews_its_lemmas_too():
    state, _placer = with_logos()
    state, _ = RULES.apply(state, None, {"type": "end_play"}, CTX)
    result = RULES.preview(state, 0, {"type": "answer", "parses": [{"word": "ΛΟΓΟΣ", "lemma": "a)ll'"}]}, CTX)
    assert result == {"lemmas": [{"word": "ΛΟΓΟΣ", "lemma": "a)ll'", "beta_code": True, "greek": "ἀλλ’"}]}


def test_a_play_with_a_beta_code_lemma_stores_the_greek():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΣ", across("H8", 5))
    after, _ = RULES.apply(
        state, seat, {"type": "play", "tiles": tiles, "parses": [logos() | {"lemma": "lo/gos"}]}, CTX
    )
    assert after["plays"][0]["words"][0]["analysis"]["lemma"] == "λόγος"


def test_the_body_carries_the_parse_vocabulary_of_the_morphology():
    body = RULES.view(new(), 0)["body"]
    assert body["vocabulary"] == vocabulary()
    assert body["vocabulary"]["pos"] == morphology.POS
    assert body["vocabulary"]["values"] == morphology.VALUES
    assert body["vocabulary"]["fields"]["N"] == ["case", "number", "gender", "degree"]
    assert body["vocabulary"]["fields"]["V"] == ["mood"]
    assert body["vocabulary"]["verb_fields"]["I"] == ["person", "tense", "voice", "mood", "number"]
    assert body["vocabulary"]["verb_fields"]["N"] == ["tense", "voice", "mood"]
