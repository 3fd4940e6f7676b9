"""The words on the cards and the bid board in the class's language (table option ``card_language``).

Pala needs no lexicon: the colour names, numbers and bid-board slots are data here, and the page shows them as
given. Koine Greek uses the Greek alphabetic numerals on the cards (α′ = 1 … ι′ = 10) and, where no fitting colour
word exists, the nearest one the Greek of the period has (orange: κρόκινος, saffron-coloured).
"""

from typing import Any

LANGUAGES: dict[str, dict[str, Any]] = {
    "eng": {
        "label": "English",
        "lang": "en",
        "colours": {
            "red": "red",
            "blue": "blue",
            "yellow": "yellow",
            "orange": "orange",
            "green": "green",
            "purple": "purple",
            "white": "white",
        },
        "numerals": {str(n): str(n) for n in range(11)},
        "numbers": {
            "0": "zero",
            "1": "one",
            "2": "two",
            "3": "three",
            "4": "four",
            "5": "five",
            "6": "six",
            "7": "seven",
            "8": "eight",
            "9": "nine",
            "10": "ten",
        },
        "slots": {"face": "+Face", "two": "+2", "one": "+1", "zero": "+0", "cancel": "Cancel"},
    },
    "spa": {
        "label": "Español",
        "lang": "es",
        "colours": {
            "red": "rojo",
            "blue": "azul",
            "yellow": "amarillo",
            "orange": "naranja",
            "green": "verde",
            "purple": "morado",
            "white": "blanco",
        },
        "numerals": {str(n): str(n) for n in range(11)},
        "numbers": {
            "0": "cero",
            "1": "uno",
            "2": "dos",
            "3": "tres",
            "4": "cuatro",
            "5": "cinco",
            "6": "seis",
            "7": "siete",
            "8": "ocho",
            "9": "nueve",
            "10": "diez",
        },
        "slots": {"face": "+Valor", "two": "+2", "one": "+1", "zero": "+0", "cancel": "Anular"},
    },
    "grc": {
        "label": "Ἑλληνική (Koine)",
        "lang": "grc",
        "colours": {
            "red": "ἐρυθρός",
            "blue": "ὑακίνθινος",
            "yellow": "ξανθός",
            "orange": "κρόκινος",
            "green": "χλωρός",
            "purple": "πορφυροῦς",
            "white": "λευκός",
        },
        "numerals": {
            "0": "0",
            "1": "α′",
            "2": "β′",
            "3": "γ′",
            "4": "δ′",
            "5": "ε′",
            "6": "ϛ′",
            "7": "ζ′",
            "8": "η′",
            "9": "θ′",
            "10": "ι′",
        },
        "numbers": {
            "0": "οὐδέν",
            "1": "εἷς",
            "2": "δύο",
            "3": "τρεῖς",
            "4": "τέσσαρες",
            "5": "πέντε",
            "6": "ἕξ",
            "7": "ἑπτά",
            "8": "ὀκτώ",
            "9": "ἐννέα",
            "10": "δέκα",
        },
        "slots": {"face": "+ἀριθμός", "two": "+β′", "one": "+α′", "zero": "+0", "cancel": "ἀκύρωσις"},
    },
}

CHOICES = tuple((code, names["label"]) for code, names in LANGUAGES.items())


def names_for(language: str) -> dict[str, Any]:
    """What the page needs to label cards, chips and the board: colours, numerals, number words, slots."""
    names = LANGUAGES[language]
    return {k: names[k] for k in ("lang", "colours", "numerals", "numbers", "slots")}
