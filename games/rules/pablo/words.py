"""Number words, so that a language class reads card values and scores in the language it learns.

The data: each language's words for 0..19 and for the tens, how a ten and a unit join, and the word for a
hundred. Koine Greek has no word for zero or for a negative number: zero is οὐδέν ("nothing") and a negative number
is written with a minus sign before the word.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class NumberWords:
    label: str
    small: tuple[str, ...]  # 0..19
    tens: tuple[str, ...]  # 20, 30, ... 90
    join: str  # between a ten and a unit
    hundred: str
    hundred_join: str  # between a hundred and the rest
    minus: str


SPANISH = NumberWords(
    label="Spanish",
    small=(
        "cero",
        "uno",
        "dos",
        "tres",
        "cuatro",
        "cinco",
        "seis",
        "siete",
        "ocho",
        "nueve",
        "diez",
        "once",
        "doce",
        "trece",
        "catorce",
        "quince",
        "dieciséis",
        "diecisiete",
        "dieciocho",
        "diecinueve",
    ),
    tens=("veinte", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"),
    join=" y ",
    hundred="cien",
    hundred_join="ciento ",
    minus="menos ",
)
# Spanish writes 21..29 as one word.
SPANISH_TWENTIES = (
    "veinte",
    "veintiuno",
    "veintidós",
    "veintitrés",
    "veinticuatro",
    "veinticinco",
    "veintiséis",
    "veintisiete",
    "veintiocho",
    "veintinueve",
)

ENGLISH = NumberWords(
    label="English",
    small=(
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ),
    tens=("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"),
    join="-",
    hundred="one hundred",
    hundred_join="one hundred and ",
    minus="minus ",
)

GREEK = NumberWords(
    label="Koine Greek",
    small=(
        "οὐδέν",
        "εἷς",
        "δύο",
        "τρεῖς",
        "τέσσαρες",
        "πέντε",
        "ἕξ",
        "ἑπτά",
        "ὀκτώ",
        "ἐννέα",
        "δέκα",
        "ἕνδεκα",
        "δώδεκα",
        "δεκατρεῖς",
        "δεκατέσσαρες",
        "δεκαπέντε",
        "δεκαέξ",
        "δεκαεπτά",
        "δεκαοκτώ",
        "δεκαεννέα",
    ),
    tens=("εἴκοσι", "τριάκοντα", "τεσσεράκοντα", "πεντήκοντα", "ἑξήκοντα", "ἑβδομήκοντα", "ὀγδοήκοντα", "ἐνενήκοντα"),
    join=" ",
    hundred="ἑκατόν",
    hundred_join="ἑκατὸν ",
    minus="− ",
)

LANGUAGES = {"spa": SPANISH, "eng": ENGLISH, "grc": GREEK}


def number_word(n: int, language: str) -> str:
    """``n`` in words in ``language`` (a code of :data:`LANGUAGES`); digits beyond 199."""
    words = LANGUAGES[language]
    if n < 0:
        return words.minus + number_word(-n, language)
    if n >= 200:
        return str(n)
    if n >= 100:
        return words.hundred if n == 100 else words.hundred_join + number_word(n - 100, language)
    if n < 20:
        return words.small[n]
    if language == "spa" and n < 30:
        return SPANISH_TWENTIES[n - 20]
    ten, unit = divmod(n, 10)
    return words.tens[ten - 2] + (words.join + words.small[unit] if unit else "")
