"""Beta Code → Greek Unicode, so students can type a lemma on any keyboard (``lo/gos`` → λόγος).

Pure Python (no Django). Follows the TLG conventions students meet in lexicons and tools:
letters ``a b g d e z h q i k l m n c o p r s t u f x y w`` (upper or lower case, both mean the
letter), ``*`` before a capital (its diacritics come between: ``*)abraa/m`` → Ἀβραάμ), ``)`` smooth
and ``(`` rough breathing, ``/`` acute, ``\\`` grave, ``=`` circumflex, ``+`` diaeresis, ``|`` iota
subscript. ``s`` becomes final ς at the end of a word; ``s1``/``s2``/``s3`` force medial, final
and lunate sigma. ``'`` is the elision apostrophe (’), ``:`` the raised dot (·), ``;`` the Greek
question mark. Diacritics are put in canonical order so the output composes to NFC whatever order
they were typed in (``a/)`` and ``a)/`` both give ἄ).
"""

import unicodedata

LETTERS = {
    "a": "α", "b": "β", "g": "γ", "d": "δ", "e": "ε", "z": "ζ", "h": "η", "q": "θ", "i": "ι", "k": "κ",
    "l": "λ", "m": "μ", "n": "ν", "c": "ξ", "o": "ο", "p": "π", "r": "ρ", "s": "σ", "t": "τ", "u": "υ",
    "f": "φ", "x": "χ", "y": "ψ", "w": "ω", "v": "ϝ",
}  # fmt: skip

# Mark → (combining character, rank): breathings and diaeresis sit nearest the letter, then the
# accent, then the iota subscript — the order Unicode's precomposed letters decompose to.
MARKS = {
    ")": ("\u0313", 0),
    "(": ("\u0314", 0),
    "+": ("\u0308", 0),
    "/": ("\u0301", 1),
    "\\": ("\u0300", 1),
    "=": ("\u0342", 1),
    "|": ("\u0345", 2),
}

PUNCTUATION = {"'": "\u2019", ":": "\u00b7", ";": ";"}

SIGMAS = {"1": "σ", "2": "ς", "3": "ϲ"}


class BetaCodeError(ValueError):
    """Text that is not Beta Code (a mark with no letter to sit on, a character Beta Code lacks)."""


def _marks(text: str, i: int) -> tuple[list[tuple[str, int]], int]:
    found = []
    while i < len(text) and text[i] in MARKS:
        found.append(MARKS[text[i]])
        i += 1
    return found, i


def _with_marks(letter: str, marks: list[tuple[str, int]]) -> str:
    ordered = sorted(marks, key=lambda mark: mark[1])
    return letter + "".join(char for char, _rank in ordered)


def to_greek(text: str) -> str:
    """The Greek (NFC) spelt by Beta Code ``text``; :class:`BetaCodeError` if it is not Beta Code."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "*":
            before, i = _marks(text, i + 1)
            if i >= len(text) or text[i].lower() not in LETTERS:
                raise BetaCodeError(f"'*' must be followed by a letter in {text!r}")
            letter = LETTERS[text[i].lower()].upper()
            after, i = _marks(text, i + 1)
            out.append(_with_marks(letter, before + after))
            continue
        lower = ch.lower()
        if lower in LETTERS:
            i += 1
            if lower == "s" and i < len(text) and text[i] in SIGMAS:
                letter = SIGMAS[text[i]]
                i += 1
            elif lower == "s":
                letter = "ς" if _ends_word(text, i) else "σ"
            else:
                letter = LETTERS[lower]
            marks, i = _marks(text, i)
            out.append(_with_marks(letter, marks))
        elif ch in MARKS:
            raise BetaCodeError(f"{ch!r} has no letter before it in {text!r}")
        elif ch in PUNCTUATION:
            out.append(PUNCTUATION[ch])
            i += 1
        elif ch.isspace() or ch in ".,-":
            out.append(ch)
            i += 1
        else:
            raise BetaCodeError(f"{ch!r} is not Beta Code (in {text!r})")
    return unicodedata.normalize("NFC", "".join(out))


def _ends_word(text: str, i: int) -> bool:
    """Whether the letter just before ``i`` ends its word (marks after it don't count as letters)."""
    while i < len(text) and text[i] in MARKS:
        i += 1
    return i >= len(text) or not (text[i].lower() in LETTERS or text[i] == "*")


def looks_like_beta_code(text: str) -> bool:
    """True when ``text`` is plain ASCII with at least one letter: typed Beta Code, not Greek."""
    return text.isascii() and any(ch.isalpha() for ch in text)
