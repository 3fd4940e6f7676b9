"""Abbreviations, acronyms and symbols in Hunspell dictionaries: spell-checkers accept them, word games must not.

Pure Python (no Django). A Hunspell stem is taken for an abbreviation when

- it has a dot (Hunspell's own convention: ``etc.``, ``DD.HH.``; the checker strips one trailing dot from the text);
- it has a capital after its first letter (acronyms and symbols: ``ADSL``, ``pH``, ``iOS``);
- in Spanish, it has no vowel (``sr``, ``pg``, ``cl``, ``km``: every Spanish word has one, ``y`` included);
- in Spanish, it is one of :data:`SPANISH`, the abbreviations of the es_ES dictionary (LibreOffice's, packaged by
  Debian as ``hunspell-es``) that have a vowel. That dictionary stores them like words (no dot, no flag of their own),
  so they were picked out by hand, from its flag-less short stems and its short stems with only gender or number
  flags (``sr/GS`` gives sr, sra, sres, sras).

A stem that is an abbreviation is left out with the forms its suffixes make (sr, sra, srs); a form its prefixes
make is a word of its own (es_ES makes agro from the stem gro with the prefix a).
"""

import unicodedata

SPANISH_VOWELS = frozenset("aeiouyáéíóúüAEIOUYÁÉÍÓÚÜ")

SPANISH = frozenset(
    """
    abc admón adv afmo aj ap apdo aprox art atte atto av avd avda ayto bibl cap cént cgo cit coord cta cte ctvo cód
    dcho depto der diag dicc dir dpto dto dupdo ed edit ef ej entlo erg etc fca fig fol fra geogr geom gob gral gro
    gta hab hno ib ibíd íd imp impr impto incl ing inst izq izqdo ldo lic loc ltdo máx mín mtro nro núm ob op pág
    pbro pdta pdte plza ppal pral prof prov pról pta pza rdo reg rel rep rev rte rvdo sdad sig soc srta sto tel
    teléf tfno tít tpo trad univ vol vto xto
    """.split()  # noqa: SIM905 - a list of words reads best as words
)

BY_LANGUAGE: dict[str, frozenset[str]] = {"spa": SPANISH}
VOWELS_BY_LANGUAGE: dict[str, frozenset[str]] = {"spa": SPANISH_VOWELS}


def is_abbreviation(stem: str, language: str = "") -> bool:
    """Whether a dictionary stem is an abbreviation, an acronym or a symbol rather than a word of ``language``
    (an ISO 639-3 code; languages without their own list get only the dot and capital rules)."""
    stem = unicodedata.normalize("NFC", stem.strip())
    if not stem:
        return False
    if "." in stem or any(ch.isupper() for ch in stem[1:]):
        return True
    vowels = VOWELS_BY_LANGUAGE.get(language)
    if vowels is not None and not any(ch in vowels for ch in stem if ch.isalpha()):
        return True
    return stem.lower() in BY_LANGUAGE.get(language, frozenset())


def is_prefixed(form: str, stem: str) -> bool:
    """Whether ``form`` of ``stem`` was made with a prefix (suffixes keep the stem's start, less a stripped last
    letter: sto → sta)."""
    return not form.startswith(stem[:-1])
