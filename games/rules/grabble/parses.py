"""Grabble's parses: reading a player's parse of a word, checking it against the lexicon's analyses, marking it in
the quiz, and the vocabulary a page offers for it (parts of speech, fields and values of
:mod:`lexicons.morphology`), so that the page asks for exactly what the rules read.

A parse as a player sends it: ``{word, lemma, pos, parse: {field: value}}``. The lemma is Greek, with or without
accents, or Beta Code (``lo/gos``), which is read with :mod:`lexicons.betacode`, the one Beta Code reader.
"""

import functools
from typing import Any

from games.engine import AppError, Context
from games.engine.errors import BAD_ACTION, NOT_A_WORD
from lexicons import morphology
from lexicons.betacode import BetaCodeError, looks_like_beta_code, to_greek
from lexicons.normalise import greek_key

WRONG_PARSE = "wrong_parse"
MAX_TEXT = 60
# Fields a player may leave out: nominals without a gender (ἐγώ), words without a degree.
OPTIONAL_FIELDS = ("gender", "degree")


def need(condition: bool, message: str, code: str = BAD_ACTION) -> None:
    if not condition:
        raise AppError(code, message)


@functools.cache
def vocabulary() -> dict[str, Any]:
    """What a parse form offers: the parts of speech, the values of every field, and which fields each part of
    speech asks for (a verb's by its mood, once the mood is chosen; ``"V"`` alone asks for the mood). Made once:
    every view carries it (five views a move), and it never changes. Callers only read it."""
    every = {"gender": "M", "degree": "C"}
    return {
        "pos": dict(morphology.POS),
        "values": {name: dict(values) for name, values in morphology.VALUES.items()},
        "fields": {
            code: ["mood"] if code == "V" else list(morphology.fields_for(code, every)) for code in morphology.POS
        },
        "verb_fields": {mood: list(morphology.fields_for("V", {"mood": mood})) for mood in morphology.VALUES["mood"]},
        "optional": list(OPTIONAL_FIELDS),
    }


def lemma_form(lemma: str) -> str | None:
    """The Greek a typed lemma stands for: itself when typed in Greek, its reading when in Beta Code, ``None``
    when it is neither."""
    if not looks_like_beta_code(lemma):
        return lemma
    try:
        return to_greek(lemma)
    except BetaCodeError:
        return None


def lemma_previews(parses: list[Any]) -> list[dict[str, Any]]:
    """For a preview: each given lemma with the Greek it reads as (``greek`` is ``None`` for text that is neither
    Greek nor Beta Code). Lenient: an unfinished parse is skipped, not refused."""
    found = []
    for item in parses:
        if not isinstance(item, dict) or not isinstance(item.get("word"), str):
            continue
        lemma = item.get("lemma")
        if not isinstance(lemma, str) or not lemma.strip():
            continue
        lemma = lemma.strip()
        found.append(
            {
                "word": greek_key(item["word"]),
                "lemma": lemma,
                "beta_code": looks_like_beta_code(lemma),
                "greek": lemma_form(lemma),
            }
        )
    return found


def given_parses(parses: Any, words: list[str]) -> dict[str, dict[str, Any]]:
    """The player's parses, one per word formed, keyed by the word; checked for shape."""
    need(isinstance(parses, list), f"Parse every word formed: {', '.join(words)}.")
    given: dict[str, dict[str, Any]] = {}
    for item in parses:
        need(isinstance(item, dict) and isinstance(item.get("word"), str), "Each parse names its word.")
        key = greek_key(item["word"])
        need(key in words, f"{key} is not a word formed by this move.")
        lemma = item.get("lemma")
        need(isinstance(lemma, str) and 0 < len(lemma.strip()) <= MAX_TEXT, f"{key}: give the lemma.")
        greek = lemma_form(lemma.strip())
        need(greek is not None, f"{key}: the lemma {lemma!r} is neither Greek nor Beta Code.")
        pos = item.get("pos")
        try:
            pos = morphology.pos_code(pos) if isinstance(pos, str) else None
        except ValueError:
            pos = None
        need(pos is not None, f"{key}: give the part of speech ({', '.join(morphology.POS)}).")
        parse = item.get("parse", {})
        need(isinstance(parse, dict), f"{key}: the parse is a dict of fields.")
        clean = {}
        for name, value in parse.items():
            need(name in morphology.FIELDS, f"{key}: {name!r} is not a parse field.")
            need(isinstance(value, str) and value.strip().upper() in morphology.VALUES[name], f"{key}: bad {name}.")
            clean[name] = value.strip().upper()
        given[key] = {"lemma": greek, "pos": pos, "parse": clean}
    missing = [w for w in words if w not in given]
    need(not missing, f"Parse every word formed; missing: {', '.join(missing)}.")
    return given


def wrong_fields(given: dict[str, Any], analysis: dict[str, Any]) -> list[str]:
    """What is wrong in ``given`` against one analysis: "lemma", "part of speech", then parse fields — those the
    word has that are missing or wrong, and those it does not have (a parse gives exactly the analysis's fields)."""
    wrong = []
    if greek_key(given["lemma"]) != greek_key(analysis["lemma"]):
        wrong.append("lemma")
    pos = morphology.pos_code(analysis["pos"])
    if given["pos"] != pos:
        wrong.append("part of speech")
    fields = set(morphology.compare(given["parse"], {"pos": pos, "parse": analysis["parse"]}))
    fields |= set(given["parse"]) - set(morphology.fields_for(pos, analysis["parse"]))
    return wrong + [name for name in morphology.FIELDS if name in fields]


def is_proper(lemma: str) -> bool:
    """Whether a lemma names a proper noun: capitalised, as MorphGNT writes them (Παῦλος; ``*pau=los`` in Beta
    Code). The bundled lexicon leaves proper nouns out; a lexicon that keeps them marks them so."""
    return lemma[:1].isupper()


def readings(ctx: Context, key: str, proper_nouns: bool = False) -> list[dict[str, Any]]:
    """Every analysis the lexicon has of ``key`` (form, lemma, pos, parse, gloss): the readings a player may give,
    without proper nouns unless ``proper_nouns``. A play keeps them all, so that the quiz can accept any of them
    without the lexicon."""
    lexicon = ctx.lexicon
    if lexicon is None or not lexicon.is_word(key):
        return []
    found = [{k: a.get(k, "") for k in ("form", "lemma", "pos", "parse", "gloss")} for a in lexicon.analyses(key)]
    return [a for a in found if proper_nouns or not is_proper(str(a["lemma"]))]


def closest(given: dict[str, Any], analyses: list[dict[str, Any]]) -> tuple[int, list[str]]:
    """The index of the analysis ``given`` is closest to (the first of those as close), and what is wrong against
    it (nothing: it matches)."""
    best, best_wrong = 0, wrong_fields(given, analyses[0])
    for index, analysis in enumerate(analyses[1:], start=1):
        if not best_wrong:
            break
        wrong = wrong_fields(given, analysis)
        if len(wrong) < len(best_wrong):
            best, best_wrong = index, wrong
    return best, best_wrong


def check_parse(ctx: Context, key: str, given: dict[str, Any], proper_nouns: bool = False) -> dict[str, Any] | None:
    """The lexicon analysis of ``key`` that ``given`` matches; ``None`` if the lexicon cannot tell.

    A wrong parse raises, naming what is wrong against the closest analysis (never the answer); so does a word the
    lexicon knows only as a proper noun, unless ``proper_nouns``."""
    analyses = readings(ctx, key, proper_nouns)
    if not analyses:
        if readings(ctx, key, proper_nouns=True):
            raise AppError(NOT_A_WORD, f"{key}: a proper noun, not a game word at this table.")
        return None
    index, wrong = closest(given, analyses)
    if not wrong:
        return analyses[index]
    verb = "is" if len(wrong) == 1 else "are"
    raise AppError(WRONG_PARSE, f"{key}: {_join(wrong)} {verb} wrong.")


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def describe(analysis: dict[str, Any]) -> str:
    """The analysis in words ("" if it is not a valid one)."""
    try:
        return _described(analysis["pos"], tuple(sorted(analysis["parse"].items())))
    except (ValueError, KeyError, TypeError, AttributeError):
        return ""


@functools.lru_cache(maxsize=4096)
def _described(pos: str, parse: tuple[tuple[str, Any], ...]) -> str:
    # Made once per analysis: each of a move's views describes every word of the score sheet it shows.
    return morphology.describe(pos, dict(parse))


def encounter_details(word: dict[str, Any], turn: int) -> dict[str, Any]:
    analysis = word.get("analysis") or {}
    return {
        "key": word["word"],
        "form": analysis.get("form") or word["word"],
        "lemma": analysis.get("lemma", ""),
        "analysis": analysis,
        "turn": turn,
    }
