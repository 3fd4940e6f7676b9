"""Meanings for the bundled Spanish and English lexicons, from Debian's packaged dictionaries. Used only by
``build.py`` (regenerating the bundled data), never at run time.

- Spanish: the Apertium English–Spanish pair (``apertium-eng-spa``): its Spanish analyser (``spa-eng.automorf.bin``)
  gives each form's lemma and part of speech, its bilingual dictionary (``spa-eng.autobil.bin``) the English; both
  run through ``lt-proc`` (``lttoolbox``). FreeDict's Spanish–English dictionary (``dict-freedict-spa-eng``) is the
  second source: for a form Apertium does not know, the FreeDict entry of the form or of its lemma.
- English: WordNet 3.0 (``wordnet-base``): the first sense's short definition of the word or of its base form
  (WordNet's own morphology: its exception lists, then its suffix rules); function words WordNet lacks come from
  :data:`FUNCTION_WORDS`, a short hand-checked list.
"""

import gzip
import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

APERTIUM = Path("/usr/share/apertium/apertium-eng-spa")
FREEDICT = Path("/usr/share/dictd/freedict-spa-eng")
WORDNET = Path("/usr/share/wordnet")
MAX_SENSES = 2  # meanings kept per form, the most usual first
MAX_LENGTH = 80

# -- Spanish ---------------------------------------------------------------------------------------------------------
_TAG = re.compile(r"<[^>]*>")
POS_NAMES = {
    "n": "noun", "vblex": "verb", "vbser": "verb", "vbhaver": "verb", "vbmod": "verb", "adj": "adjective",
    "adv": "adverb", "pr": "preposition", "cnjcoo": "conjunction", "cnjsub": "conjunction", "det": "determiner",
    "prn": "pronoun", "num": "numeral", "ij": "interjection", "preadv": "adverb", "rel": "relative",
}  # fmt: skip


def _lt_proc(binary: Path, lines: list[str], bilingual: bool = False) -> list[str]:
    """Run ``lt-proc`` over one item per line; one output line per input line."""
    args = ["lt-proc", "-b", str(binary)] if bilingual else ["lt-proc", str(binary)]
    out = subprocess.run(args, input="\n".join(lines) + "\n", capture_output=True, text=True, check=True).stdout  # noqa: S603
    return out.split("\n")[: len(lines)]


def _readings(line: str) -> list[str]:
    """``^canciones/canción<n><f><pl>$`` → ``["canción<n><f><pl>"]`` (empty when unknown: ``/*canciones``)."""
    body = line.strip().removeprefix("^").removesuffix("$")
    parts = body.split("/")[1:]
    return [p for p in parts if p and not p.startswith("*")]


def _english(reading: str) -> str:
    """``song<n><pl>`` → ``song``; verbs read "to eat"."""
    word = _TAG.sub("", reading).replace("+", " ").strip()
    tags = re.findall(r"<([^>]*)>", reading)
    if tags and tags[0].startswith("vb") and word:
        return f"to {word}"
    return word


def apertium_spanish(forms: list[str]) -> dict[str, tuple[str, str, str]]:
    """``{form: (lemma, part of speech, English)}`` for every form Apertium analyses and translates."""
    analyses = _lt_proc(APERTIUM / "spa-eng.automorf.bin", forms)
    # a form with enclitics or a contraction (darle, del) is translated by its first word (dar, de)
    readings = {
        form: [r.split("+")[0] for r in _readings(line)[:4]] for form, line in zip(forms, analyses, strict=True)
    }
    unknown = [form for form, rs in readings.items() if not rs]
    names = _lt_proc(APERTIUM / "spa-eng.automorf.bin", [form[:1].upper() + form[1:] for form in unknown])
    for form, line in zip(unknown, names, strict=True):
        if any("<np>" in r for r in _readings(line)):
            readings[form] = [f"{form[:1].upper() + form[1:]}<np>"]
    unique = sorted({r for rs in readings.values() for r in rs})
    translated = _lt_proc(APERTIUM / "spa-eng.autobil.bin", [f"^{r}$" for r in unique], bilingual=True)
    english = {}
    for reading, line in zip(unique, translated, strict=True):
        targets = [t for t in line.strip().removeprefix("^").removesuffix("$").split("/")[1:] if not t.startswith("@")]
        if targets:
            english[reading] = _english(targets[0])
        elif reading.endswith("<np>"):
            english[reading] = f"a name: {_TAG.sub('', reading)}"
    found: dict[str, tuple[str, str, str]] = {}
    for form, rs in readings.items():
        if form in SPANISH_WORDS:
            found[form] = ("", "", SPANISH_WORDS[form])
            continue
        senses: list[str] = []
        for reading in rs:
            gloss = english.get(reading, "")
            if gloss and gloss not in senses:
                senses.append(gloss)
        if senses:
            first = rs[0]
            tags = re.findall(r"<([^>]*)>", first)
            lemma = _TAG.sub("", first).replace("+", " ")
            found[form] = (lemma, POS_NAMES.get(tags[0], tags[0]) if tags else "", _join(senses))
    return found


# Common words the pair does not translate alone (parts of set phrases, pronouns it leaves out), hand-checked.
SPANISH_WORDS = {
    "se": "oneself, himself, herself, itself, themselves (reflexive)", "del": "of the (de + el)",
    "al": "to the (a + el)", "cual": "which (el cual: which, who)", "cuales": "which (los cuales: which, who)",
    "través": "a través de: through, across", "respecto": "respecto a / de: regarding, with respect to",
    "vos": "you (informal, in much of Latin America)", "contigo": "with you", "conmigo": "with me",
    "consigo": "with himself, herself, themselves", "obstante": "no obstante: nevertheless",
    "ojalá": "I hope so, if only", "sos": "you are (vos form of ser)", "tenés": "you have (vos form of tener)",
    "eh": "eh, hey (interjection)", "genial": "great, brilliant", "video": "video", "videos": "videos",
}  # fmt: skip

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _b64(text: str) -> int:
    n = 0
    for ch in text:
        n = n * 64 + _B64.index(ch)
    return n


def freedict_spanish() -> dict[str, str]:
    """``{headword: first meanings}`` from FreeDict's Spanish–English dictionary (dictd format, dictzip'd)."""
    with gzip.open(FREEDICT.with_suffix(".dict.dz")) as packed:
        data = packed.read()
    found: dict[str, str] = {}
    with open(FREEDICT.with_suffix(".index"), encoding="utf-8") as index:
        for line in index:
            word, offset, length = line.rstrip("\n").split("\t")
            if word.startswith("00database"):
                continue
            text = data[_b64(offset) : _b64(offset) + _b64(length)].decode("utf-8").split("\n")[1:]
            senses = [re.sub(r"^\d+\.\s*", "", s).strip() for s in text if s.strip()]
            if senses:
                found.setdefault(word, _join(senses[0].split(", ")[:3]))
    return found


def _join(senses: Iterable[str]) -> str:
    text = "; ".join(list(senses)[:MAX_SENSES])
    return text if len(text) <= MAX_LENGTH else text[: MAX_LENGTH - 1].rsplit(" ", 1)[0] + "…"


# -- English ---------------------------------------------------------------------------------------------------------
FUNCTION_WORDS = {
    "a": "one, any (indefinite article)", "an": "one, any (indefinite article, before a vowel sound)",
    "the": "that, those (definite article)", "and": "also, plus (joins words or clauses)",
    "or": "either one (joins alternatives)", "but": "however, except", "nor": "and not", "if": "on condition that",
    "of": "belonging to, from", "to": "toward; before a verb: its plain form", "in": "inside, within",
    "on": "upon, touching the top of", "at": "in the place or time of", "by": "near; done or made by",
    "for": "intended for, on behalf of", "from": "starting at, out of", "with": "together with, using",
    "about": "concerning; around", "into": "to the inside of", "onto": "to a position on", "than": "compared with",
    "that": "the one there; which, who", "this": "the one here", "these": "the ones here",
    "those": "the ones there", "which": "what one (of a set)", "who": "what person", "whom": "what person (object)",
    "whose": "of whom, of which", "what": "which thing", "i": "the speaker (subject)", "me": "the speaker (object)",
    "my": "belonging to me", "mine": "the one belonging to me", "you": "the person spoken to",
    "your": "belonging to you", "yours": "the one belonging to you", "he": "that man or boy (subject)",
    "him": "that man or boy (object)", "his": "belonging to him", "she": "that woman or girl (subject)",
    "her": "that woman or girl (object); belonging to her", "hers": "the one belonging to her",
    "it": "that thing", "its": "belonging to it", "we": "the speaker and others (subject)",
    "us": "the speaker and others (object)", "our": "belonging to us", "ours": "the one belonging to us",
    "they": "those people or things (subject)", "them": "those people or things (object)",
    "their": "belonging to them", "theirs": "the one belonging to them", "myself": "me (reflexive)",
    "yourself": "you (reflexive)", "himself": "him (reflexive)", "herself": "her (reflexive)",
    "itself": "it (reflexive)", "ourselves": "us (reflexive)", "themselves": "them (reflexive)",
    "is": "third person singular present of be", "am": "first person singular present of be",
    "are": "present of be (plural, you)", "was": "past of be (I, he, she, it)", "were": "past of be (plural, you)",
    "be": "to exist, to have a quality", "been": "past participle of be", "being": "present participle of be",
    "do": "to perform, carry out", "does": "third person singular present of do", "did": "past of do",
    "has": "third person singular present of have", "had": "past of have", "have": "to own, hold",
    "will": "shall (future); wish", "would": "past of will; conditional", "shall": "will (future, obligation)",
    "should": "ought to", "can": "to be able to", "could": "past of can; might", "may": "to be allowed to; might",
    "might": "past of may; perhaps will", "must": "to have to", "not": "no, in no way (negation)",
    "no": "not any; the opposite of yes", "yes": "so it is (agreement)", "so": "therefore; to such a degree",
    "as": "like, in the way that; while", "because": "for the reason that", "while": "during the time that",
    "although": "even though", "though": "even if, however", "unless": "except if", "until": "up to the time that",
    "upon": "on", "within": "inside", "without": "not having, lacking", "among": "in the middle of (many)",
    "between": "in the space separating (two)", "through": "in at one side and out at the other",
    "during": "throughout the time of", "against": "in opposition to", "before": "earlier than",
    "after": "later than", "under": "below", "over": "above; finished", "there": "in that place",
    "here": "in this place", "where": "in what place", "when": "at what time", "why": "for what reason",
    "how": "in what way", "some": "a certain amount of", "any": "one or some, no matter which",
    "each": "every one (separately)", "every": "all, each one", "both": "the two", "either": "one or the other",
    "neither": "not the one nor the other", "such": "of that kind", "own": "belonging to oneself",
    "oneself": "one (reflexive)", "whether": "if (introduces alternatives)", "whoever": "any person who",
    "whatever": "anything that", "whichever": "any one that", "toward": "in the direction of",
    "towards": "in the direction of", "per": "for each", "via": "by way of", "versus": "against",
}  # fmt: skip

WORDNET_POS = ("noun", "verb", "adj", "adv")
SUFFIXES = {
    "noun": [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
             ("ies", "y")],
    "verb": [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")],
    "adj": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    "adv": [],
}  # fmt: skip


class WordNet:
    """The first sense's definition of a word in WordNet 3.0, found through WordNet's morphology (``morphy``)."""

    def __init__(self, folder: Path = WORDNET) -> None:
        self.index: dict[str, dict[str, int]] = {pos: {} for pos in WORDNET_POS}
        self.exceptions: dict[str, dict[str, list[str]]] = {pos: {} for pos in WORDNET_POS}
        self.data: dict[str, bytes] = {}
        for pos in WORDNET_POS:
            with open(folder / f"index.{pos}", encoding="utf-8") as f:
                for line in f:
                    if line.startswith(" "):
                        continue
                    fields = line.split()
                    synsets = int(fields[2])
                    self.index[pos][fields[0]] = int(fields[-synsets])  # the first (most frequent) sense
            with open(folder / f"{pos}.exc", encoding="utf-8") as f:
                for line in f:
                    inflected, *bases = line.split()
                    self.exceptions[pos][inflected] = bases
            self.data[pos] = (folder / f"data.{pos}").read_bytes()

    def base_forms(self, word: str, pos: str) -> list[str]:
        found = [word] if word in self.index[pos] else []
        found += [b for b in self.exceptions[pos].get(word, []) if b in self.index[pos]]
        for suffix, ending in SUFFIXES[pos]:
            if word.endswith(suffix) and len(word) > len(suffix):
                base = word[: -len(suffix)] + ending
                if base in self.index[pos]:
                    found.append(base)
        return list(dict.fromkeys(found))

    def gloss(self, word: str, pos: str) -> str:
        offset = self.index[pos][word]
        data = self.data[pos]
        line = data[offset : data.index(b"\n", offset)].decode("utf-8")
        definition = line.split(" | ", 1)[1] if " | " in line else ""
        return definition.split(";")[0].strip().strip('"')

    def meaning(self, word: str) -> tuple[str, str, str]:
        """``(lemma, part of speech, definition)``, or empty strings when WordNet lacks the word."""
        lowered = word.lower()
        if lowered in FUNCTION_WORDS:
            return lowered, "", FUNCTION_WORDS[lowered]
        for pos in WORDNET_POS:
            for base in self.base_forms(lowered, pos):
                gloss = self.gloss(base, pos)
                if gloss:
                    return (
                        base.replace("_", " "),
                        "adjective" if pos == "adj" else ("adverb" if pos == "adv" else pos),
                        _join([gloss]),
                    )
        return "", "", ""
