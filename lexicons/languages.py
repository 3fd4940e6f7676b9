"""Names of the languages lexicons are in, for pages: people read "Koine Greek", not "grc".

Pure Python (no Django). Codes are ISO 639-3; a code this table does not name is shown as it is."""

NAMES: dict[str, str] = {
    "grc": "Koine Greek",
    "ell": "Modern Greek",
    "spa": "Spanish",
    "eng": "English",
    "lat": "Latin",
    "heb": "Hebrew",
    "hbo": "Biblical Hebrew",
    "arc": "Aramaic",
    "fra": "French",
    "deu": "German",
    "ita": "Italian",
    "por": "Portuguese",
    "cat": "Catalan",
    "nld": "Dutch",
}


def language_name(code: str) -> str:
    """The name of the language with ISO 639-3 ``code`` (the code itself when the table has no name for it)."""
    return NAMES.get(code, code)
