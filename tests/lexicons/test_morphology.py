"""The Greek parse vocabulary: MorphGNT codes to fields, which fields a word needs, descriptions, comparison."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicons.morphology import FIELDS, POS, VALUES, compare, describe, fields_for, parse_from_code, pos_code


def analysis(pos: str, code: str) -> dict:
    return {"pos": pos, "parse": parse_from_code(pos, code)}


def test_pos_codes_accept_morphgnt_dash():
    assert pos_code("N-") == "N"
    assert pos_code("RA") == "RA"
    assert POS[pos_code("V-")] == "verb"


def test_unknown_pos_is_an_error():
    with pytest.raises(ValueError, match="unknown part of speech"):
        pos_code("Q-")


def test_finite_verb_code_gives_only_used_fields():
    assert parse_from_code("V-", "3IAI-S--") == {"person": "3", "tense": "I", "voice": "A", "mood": "I", "number": "S"}


def test_noun_code():
    assert parse_from_code("N-", "----DSF-") == {"case": "D", "number": "S", "gender": "F"}


def test_indeclinable_code_is_empty():
    assert parse_from_code("C-", "--------") == {}


@pytest.mark.parametrize("code", ["3IAI-S-", "3IAI-S---", "3QAI-S--", "----NSMZ", "--EI----"])
def test_malformed_codes_are_refused(code):
    with pytest.raises(ValueError, match=r"parse code|is not a"):
        parse_from_code("V-", code)


def test_fields_for_finite_infinitive_participle():
    assert fields_for("V", parse_from_code("V", "3IAI-S--")) == ("person", "tense", "voice", "mood", "number")
    assert fields_for("V", parse_from_code("V", "-PAN----")) == ("tense", "voice", "mood")
    assert fields_for("V", parse_from_code("V", "-AAPNSM-")) == ("tense", "voice", "mood", "case", "number", "gender")


def test_fields_for_nominals_and_ego_without_gender():
    assert fields_for("N", parse_from_code("N", "----NSM-")) == ("case", "number", "gender")
    assert fields_for("RA", parse_from_code("RA", "----NSM-")) == ("case", "number", "gender")
    assert fields_for("RP", parse_from_code("RP", "----NS--")) == ("case", "number")


def test_comparative_adjective_needs_degree():
    assert fields_for("A", parse_from_code("A", "----NSMC")) == ("case", "number", "gender", "degree")


def test_indeclinables_need_nothing():
    for pos in ("P", "C", "X", "I", "D"):
        assert fields_for(pos, {}) == ()


def test_describe_noun():
    assert describe("N-", parse_from_code("N-", "----NSM-")) == "noun, nominative singular masculine"


def test_describe_finite_verb():
    expected = "verb, imperfect active indicative, third person singular"
    assert describe("V-", parse_from_code("V-", "3IAI-S--")) == expected


def test_describe_participle_and_preposition():
    expected = "verb, aorist active participle nominative singular masculine"
    assert describe("V", parse_from_code("V", "-AAPNSM-")) == expected
    assert describe("P-", {}) == "preposition"


def test_compare_right_parse_is_empty():
    given = {"person": "3", "tense": "I", "voice": "A", "mood": "I", "number": "S"}
    assert compare(given, analysis("V", "3IAI-S--")) == []


def test_compare_names_the_wrong_fields_in_order():
    given = {"case": "G", "number": "S", "gender": "F"}
    assert compare(given, analysis("N", "----NSM-")) == ["case", "gender"]


def test_compare_missing_field_is_wrong():
    assert compare({"case": "N", "number": "S"}, analysis("N", "----NSM-")) == ["gender"]


def test_compare_ignores_fields_the_word_does_not_use():
    assert compare({"case": "N", "number": "S", "gender": "M", "tense": "A"}, analysis("N", "----NSM-")) == []


def test_compare_is_case_insensitive_on_values():
    assert compare({"case": "n", "number": "s", "gender": "m"}, analysis("N", "----NSM-")) == []


@pytest.mark.parametrize("tense", ["P", "I", "X", "Y"])
@pytest.mark.parametrize("tagged", ["M", "P"])
@pytest.mark.parametrize("answer", ["M", "P", "E"])
def test_middle_passive_accepted_in_shared_tenses(tense, tagged, answer):
    code = f"3{tense}{tagged}I-S--"
    given = {"person": "3", "tense": tense, "voice": answer, "mood": "I", "number": "S"}
    assert compare(given, analysis("V", code)) == []


@pytest.mark.parametrize("tense", ["A", "F"])
def test_middle_and_passive_distinct_in_aorist_and_future(tense):
    given = {"person": "3", "tense": tense, "voice": "E", "mood": "I", "number": "S"}
    assert compare(given, analysis("V", f"3{tense}PI-S--")) == ["voice"]
    given["voice"] = "M"
    assert compare(given, analysis("V", f"3{tense}PI-S--")) == ["voice"]


def test_active_never_matches_middle_passive():
    given = {"person": "3", "tense": "P", "voice": "A", "mood": "I", "number": "S"}
    assert compare(given, analysis("V", "3PMI-S--")) == ["voice"]


code_chars = [st.sampled_from(["-"] + [v for v in VALUES[name] if v != "E"]) for name in FIELDS]


@settings(max_examples=200)
@given(st.tuples(*code_chars), st.sampled_from(sorted(POS)))
def test_a_parse_always_matches_itself(chars, pos):
    parse = parse_from_code(pos, "".join(chars))
    assert compare(parse, {"pos": pos, "parse": parse}) == []
    assert describe(pos, parse).startswith(POS[pos])
