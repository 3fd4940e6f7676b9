"""Regenerate the bundled lexicon files in this folder. Run from the project root:

    LEXICON_SOURCES=/path/to/sources .venv/bin/python -m lexicons.data.build [grc] [spa] [eng]

Needs what only this script uses (``requirements/dev.txt``): ``py-sblgnt`` and ``wordfreq``; for Spanish also
Debian's ``hunspell-es`` (``apt-get install -y hunspell-es``). Nothing here is needed at run time: the platform reads
the gzip'd TSV files (``form, lemma, pos, parse, gloss, frequency``, the ``csv`` loader format) this script writes.

Choices:
- Greek: MorphGNT SBLGNT via the ``morphgnt`` loader (movable ν both ways; the printed form beside the normalised one
  where their keys differ: οὐκ and οὐχ beside οὐ, ἐξ beside ἐκ, elided δι’ beside διά; proper nouns out; token counts
  as frequency); parse written as the MorphGNT code, part of speech as its code; glosses from
  the MorphGNT morphological lexicon's ``morphgnt-lexemes.yaml``, in the folder ``LEXICON_SOURCES`` names.
- Spanish: es_ES stems starting with a capital (names, acronyms) and abbreviations (:mod:`lexicons.abbreviations`:
  dots, inner capitals, no vowel, or on its list for es_ES) are left out; every other stem expanded by
  :mod:`lexicons.hunspell`; zipf frequency of the accented form.
- English: the public-domain ENABLE word list (``enable1.txt`` in ``LEXICON_SOURCES``) as is (a word-game list:
  lower case, no abbreviations); zipf frequency.
- Meanings (:mod:`lexicons.data.meanings`): Spanish from the Apertium English–Spanish pair, then FreeDict's
  Spanish–English dictionary; English from WordNet 3.0 and a hand-checked list of function words. They need
  ``apt-get install -y apertium-eng-spa lttoolbox dict-freedict-spa-eng wordnet-base``.
  ``python -m lexicons.data.build meanings [spa] [eng]`` adds them to the bundled files as they are.
"""

import csv
import gzip
import io
import os
import sys
from collections.abc import Iterable, Iterator
from functools import partial
from pathlib import Path

from lexicons import morphology
from lexicons.loaders import Record, read_hunspell, read_morphgnt

HERE = Path(__file__).resolve().parent


def sources() -> Path:
    """The folder of the downloaded source files (``LEXICON_SOURCES``): they are not kept in the repository."""
    folder = os.environ.get("LEXICON_SOURCES")
    if not folder:
        sys.exit("Set LEXICON_SOURCES to the folder holding morphgnt-lexemes.yaml and enable1.txt.")
    return Path(folder)


HUNSPELL_ES = Path("/usr/share/hunspell/es_ES")
HEADER = ("form", "lemma", "pos", "parse", "gloss", "frequency")


def write_tsv(path: Path, records: Iterable[Record]) -> int:
    """Write records as gzip'd TSV (fixed gzip timestamp, so unchanged data gives an identical file)."""
    count = 0
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as packed:
        text = io.TextIOWrapper(packed, encoding="utf-8", newline="")
        writer = csv.writer(text, delimiter="\t", lineterminator="\n")
        writer.writerow(HEADER)
        for record in records:
            writer.writerow(
                (record.form, record.lemma, record.pos, _parse_code(record), record.gloss, _number(record.frequency))
            )
            count += 1
        text.flush()
        text.detach()
    return count


def _parse_code(record: Record) -> str:
    if not record.parse:
        return ""
    return "".join(record.parse.get(name, "-") for name in morphology.FIELDS)


def _number(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if value == int(value) else f"{value:.2f}"


def greek() -> Iterator[Record]:
    import pysblgnt  # type: ignore[import-untyped]
    import yaml

    books = sorted((Path(pysblgnt.__file__).parent / "sblgnt").glob("*-morphgnt.txt"))
    with open(sources() / "morphgnt-lexemes.yaml", encoding="utf-8") as f:
        lexemes = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506 - safe loader
    for record in read_morphgnt(books):
        record.gloss = gloss_text((lexemes.get(record.lemma) or {}).get("gloss"))
        yield record


def gloss_text(value: object) -> str:
    """A gloss as prose: the lexemes file gives some lemmas a list of senses (βάτος, ἄπειμι), joined by "; "."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return "; ".join(str(item).strip() for item in value if str(item).strip())
    return str(value)


def spanish() -> Iterator[Record]:
    from wordfreq import zipf_frequency

    records = []
    for record in read_hunspell(HUNSPELL_ES.with_suffix(".dic"), HUNSPELL_ES.with_suffix(".aff"), language="spa"):
        if record.lemma[:1].isupper():
            continue
        record.frequency = zipf_frequency(record.form, "es")
        records.append(record)
    yield from spanish_meanings(records)


def spanish_meanings(records: list[Record]) -> Iterator[Record]:
    """Each form's English meaning and part of speech (:mod:`lexicons.data.meanings`): Apertium's analysis and
    bilingual dictionary, else FreeDict's entry for the form or its lemma. A record keeps a gloss it has."""
    from lexicons.data import meanings

    apertium = meanings.apertium_spanish(sorted({r.form for r in records}))
    freedict = meanings.freedict_spanish()
    for record in records:
        _lemma, pos, gloss = apertium.get(record.form, ("", "", ""))
        record.gloss = record.gloss or gloss or freedict.get(record.form, "") or freedict.get(record.lemma, "")
        record.pos = record.pos or pos
        yield record


def english() -> Iterator[Record]:
    from wordfreq import zipf_frequency

    with open(sources() / "enable1.txt", encoding="utf-8") as f:
        words = [word for word in (line.strip() for line in f) if word]
    yield from english_meanings(Record(form=word, frequency=zipf_frequency(word, "en")) for word in words)


def english_meanings(records: Iterable[Record]) -> Iterator[Record]:
    """Each word's WordNet definition, lemma (its base form) and part of speech, or a function word's from the
    hand-checked list (:mod:`lexicons.data.meanings`). A record keeps what it has."""
    from lexicons.data import meanings

    wordnet = meanings.WordNet()
    for record in records:
        lemma, pos, gloss = wordnet.meaning(record.form)
        record.gloss = record.gloss or gloss
        record.lemma = record.lemma or lemma
        record.pos = record.pos or pos
        yield record


def read_bundled(filename: str) -> Iterator[Record]:
    """The records of a bundled file as written (to add meanings without the other sources)."""
    with gzip.open(HERE / filename, "rt", encoding="utf-8", newline="") as f:
        rows = csv.reader(f, delimiter="\t")
        next(rows)
        for form, lemma, pos, parse, gloss, frequency in rows:
            if parse:
                raise ValueError(f"{filename}: parse codes are not read back here")
            yield Record(
                form=form, lemma=lemma, pos=pos, gloss=gloss, frequency=float(frequency) if frequency else None
            )


MEANINGS = {"spa": lambda records: spanish_meanings(list(records)), "eng": english_meanings}


TARGETS = {
    "grc": ("grc-morphgnt.tsv.gz", greek),
    "spa": ("spa-hunspell.tsv.gz", spanish),
    "eng": ("eng-enable.tsv.gz", english),
}


def main(languages: list[str]) -> None:
    """``meanings spa eng`` adds meanings to the bundled files as they are (no other source needed)."""
    only_meanings = languages[:1] == ["meanings"]
    languages = languages[1:] if only_meanings else languages
    for language in languages or list(MEANINGS if only_meanings else TARGETS):
        filename, records = TARGETS[language]
        if only_meanings:
            records = partial(MEANINGS[language], list(read_bundled(filename)))
        count = write_tsv(HERE / filename, records())
        print(f"{filename}: {count:,} entries, {(HERE / filename).stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main(sys.argv[1:])
