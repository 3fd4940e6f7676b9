"""The key of a written form: the string that cards or tiles can spell, and that games look words up by.

Pure Python (no Django) so that rules modules and build scripts can import it. Each language with its own rule has
a function here (``KEY_FUNCTIONS``); languages without their own rule get :func:`default_key` (NFD, drop combining
marks, NFC, upper-case), which is documented to teachers who upload lexicons in other languages.
"""

import re
import unicodedata
from collections.abc import Callable

# Apostrophes that mark an elided Greek form (δι’, κατ’): right single quote, ASCII quote, modifier letter
# apostrophe, and the Greek koronis/psili that some editions print in their place.
GREEK_ELISION_MARKS = "\u2019'\u02bc\u1fbd\u1fbf"

# MorphGNT marks movable ν (ἐφανέρωσε(ν)) and the movable ς of οὕτω(ς), μέχρι(ς) the same way.
MOVABLE_LETTER = re.compile(r"\(([νς])\)")

# Spanish folds only these vowels; ñ stays its own letter (Ñ ≠ N on a Palabra card).
_SPANISH_FOLD = str.maketrans("áéíóúüÁÉÍÓÚÜ", "aeiouuAEIOUU")


def _drop_combining_marks(text: str) -> str:
    """NFD, remove every combining mark, NFC again."""
    decomposed = unicodedata.normalize("NFD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", bare)


def greek_key(text: str) -> str:
    """ΛΟΓΟΣ for λόγος, Η for ᾗ (the iota subscript is a mark, not a letter), ΔΙ for δι’.

    Marks are stripped *before* upper-casing: ``"ᾳ".upper()`` is ``"ΑΙ"``, which would add a letter.
    Upper-casing turns final ς into Σ as well.
    """
    bare = _drop_combining_marks(text)
    bare = "".join(ch for ch in bare if ch not in GREEK_ELISION_MARKS)
    return bare.upper()


def spanish_key(text: str) -> str:
    """CANCION for canción, PINGUINO for pingüino, AÑO (not ANO) for año."""
    return unicodedata.normalize("NFC", text).translate(_SPANISH_FOLD).upper()


def english_key(text: str) -> str:
    """Upper-case A–Z: accents are folded (CAFE for café, NAIVE for naïve), as cards have no accented letters."""
    return _drop_combining_marks(text).upper()


def default_key(text: str) -> str:
    """Languages without their own rule: NFD, drop combining marks, NFC, upper-case."""
    return _drop_combining_marks(text).upper()


KEY_FUNCTIONS: dict[str, Callable[[str], str]] = {
    "grc": greek_key,
    "ell": greek_key,
    "spa": spanish_key,
    "eng": english_key,
}


def key_function(language: str) -> Callable[[str], str]:
    """The key function for an ISO 639-3 language code (the default rule for codes without their own)."""
    return KEY_FUNCTIONS.get(language, default_key)


def normalise(text: str, language: str) -> str:
    """The key of ``text`` in ``language``."""
    return key_function(language)(text)


def movable_nu_variants(form: str) -> list[str]:
    """Both spellings of a MorphGNT form with a movable letter: ``ἐφανέρωσε(ν)`` → ``[ἐφανέρωσε, ἐφανέρωσεν]``,
    ``οὕτω(ς)`` → ``[οὕτω, οὕτως]``. Forms without the marker come back alone."""
    if not MOVABLE_LETTER.search(form):
        return [form]
    return [MOVABLE_LETTER.sub("", form), MOVABLE_LETTER.sub(r"\1", form)]
