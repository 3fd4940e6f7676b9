"""The Greek parse vocabulary: MorphGNT part-of-speech and parse codes as structured fields.

Pure Python (no Django): the lexicon loader turns MorphGNT codes into field dicts with
:func:`parse_from_code`, and Grabble checks a player's parse against those dicts with :func:`compare`.
A parse is a ``dict[str, str]`` from field name to the one-letter MorphGNT value, holding only the
fields that apply (MorphGNT's ``-`` positions are left out), e.g. ``{"case": "N", "number": "S",
"gender": "M"}`` for λόγος.

Middle/passive: MorphGNT tags present, imperfect and perfect (and pluperfect, whose forms are the
same kind) middle-or-passive forms as M or P editorially; the forms themselves cannot tell the two
apart, so in those tenses a player's M, P or ``E`` ("middle/passive", Robinson's code) matches
either tag. In the aorist and future the voices have distinct forms and must match exactly.
"""

from collections.abc import Mapping
from typing import Any

POS: dict[str, str] = {
    "N": "noun",
    "V": "verb",
    "A": "adjective",
    "D": "adverb",
    "C": "conjunction",
    "P": "preposition",
    "X": "particle",
    "I": "interjection",
    "RA": "article",
    "RP": "personal pronoun",
    "RD": "demonstrative pronoun",
    "RR": "relative pronoun",
    "RI": "interrogative/indefinite pronoun",
}

FIELDS: tuple[str, ...] = ("person", "tense", "voice", "mood", "case", "number", "gender", "degree")

MIDDLE_PASSIVE = "E"

VALUES: dict[str, dict[str, str]] = {
    "person": {"1": "first", "2": "second", "3": "third"},
    "tense": {"P": "present", "I": "imperfect", "F": "future", "A": "aorist", "X": "perfect", "Y": "pluperfect"},
    "voice": {"A": "active", "M": "middle", "P": "passive", MIDDLE_PASSIVE: "middle/passive"},
    "mood": {
        "I": "indicative",
        "D": "imperative",
        "S": "subjunctive",
        "O": "optative",
        "N": "infinitive",
        "P": "participle",
    },
    "case": {"N": "nominative", "G": "genitive", "D": "dative", "A": "accusative", "V": "vocative"},
    "number": {"S": "singular", "P": "plural"},
    "gender": {"M": "masculine", "F": "feminine", "N": "neuter"},
    "degree": {"C": "comparative", "S": "superlative"},
}

NOMINALS = frozenset({"N", "A", "RA", "RP", "RD", "RR", "RI"})
# Tenses whose middle and passive forms are identical (see the module docstring).
SHARED_VOICE_TENSES = frozenset({"P", "I", "X", "Y"})


def pos_code(pos: str) -> str:
    """``"N-"`` → ``"N"``; ``"RA"`` stays. Accepts the code with or without MorphGNT's dash."""
    code = pos.strip().rstrip("-").upper()
    if code not in POS:
        raise ValueError(f"unknown part of speech: {pos!r}")
    return code


def parse_from_code(pos: str, code: str) -> dict[str, str]:
    """A MorphGNT 8-character parse code as a field dict, e.g. ``"3IAI-S--"`` →
    ``{"person": "3", "tense": "I", "voice": "A", "mood": "I", "number": "S"}``."""
    pos_code(pos)
    if len(code) != len(FIELDS):
        raise ValueError(f"a parse code has {len(FIELDS)} characters, not {len(code)}: {code!r}")
    parse: dict[str, str] = {}
    for name, value in zip(FIELDS, code.upper(), strict=True):
        if value == "-":
            continue
        if value not in VALUES[name] or value == MIDDLE_PASSIVE:
            raise ValueError(f"{value!r} is not a {name} in {code!r}")
        parse[name] = value
    return parse


def fields_for(pos: str, parse: Mapping[str, Any]) -> tuple[str, ...]:
    """The fields a full parse of this word gives, per part of speech (and mood, for verbs).

    Nominals give gender only where the word has one (ἐγώ and σύ do not), and degree only for a
    comparative or superlative; indeclinables (adverbs, conjunctions, …) have no fields."""
    code = pos_code(pos)
    if code == "V":
        mood = parse.get("mood")
        if mood == "N":
            return ("tense", "voice", "mood")
        if mood == "P":
            return ("tense", "voice", "mood", "case", "number", "gender")
        return ("person", "tense", "voice", "mood", "number")
    if code in NOMINALS:
        fields = ["case", "number"]
        if parse.get("gender"):
            fields.append("gender")
        if parse.get("degree"):
            fields.append("degree")
        return tuple(fields)
    return ("degree",) if parse.get("degree") else ()


def label(name: str, value: str) -> str:
    """The readable label of one field value (``label("case", "N")`` → ``"nominative"``)."""
    return VALUES[name].get(value, value)


def describe(pos: str, parse: Mapping[str, Any]) -> str:
    """A parse in words: ``"noun, nominative singular masculine"``,
    ``"verb, imperfect active indicative, third person singular"``."""
    code = pos_code(pos)
    fields = fields_for(code, parse)
    if code == "V" and "person" in fields:
        # Finite verbs read "tense voice mood, person number", as grammars print them.
        head = " ".join(label(n, parse[n]) for n in ("tense", "voice", "mood") if parse.get(n))
        tail = " ".join(
            ([label("person", parse["person"]) + " person"] if parse.get("person") else [])
            + ([label("number", parse["number"])] if parse.get("number") else [])
        )
        text = ", ".join(part for part in (head, tail) if part)
    else:
        text = " ".join(label(name, parse[name]) for name in fields if parse.get(name))
    return POS[code] + (", " + text if text else "")


def _voice_matches(given: str, tagged: str, tense: str | None) -> bool:
    if given == tagged:
        return True
    if tense in SHARED_VOICE_TENSES:
        return given in ("M", "P", MIDDLE_PASSIVE) and tagged in ("M", "P")
    return False


def compare(given: Mapping[str, Any], analysis: Mapping[str, Any]) -> list[str]:
    """The fields of ``given`` (a player's parse) that do not match ``analysis`` (a lexicon analysis
    with ``pos`` and ``parse``), in :data:`FIELDS` order; empty when the parse is right.

    Only the fields the word's part of speech uses are checked; a missing field counts as wrong.
    The lemma is not compared here (that needs the lexicon's normalisation)."""
    pos = analysis["pos"]
    parse = analysis["parse"]
    wrong = []
    for name in fields_for(pos, parse):
        value = given.get(name)
        value = value.strip().upper() if isinstance(value, str) else value
        expected = parse.get(name)
        if name == "voice" and isinstance(value, str):
            ok = _voice_matches(value, expected, parse.get("tense"))
        else:
            ok = value == expected
        if not ok:
            wrong.append(name)
    return wrong
