"""Every word as printed in the SBLGNT text is a key of the Greek lexicon, with the analysis MorphGNT gives it.

MorphGNT's normalised column turns printed οὐκ/οὐχ into οὐ and ἐξ into ἐκ, drops movable ν and restores elided
vowels; the lexicon must know the printed spellings as well. The text is read through ``py-sblgnt``, the package the
bundled lexicon is built from.
"""

import csv
import gzip
from collections import defaultdict
from pathlib import Path

import pysblgnt  # type: ignore[import-untyped]  # requirements/dev.txt: the MorphGNT text the lexicon is built from
import pytest

from lexicons import morphology
from lexicons.loaders import read_morphgnt, read_records
from lexicons.normalise import greek_key

BUNDLED = Path(__file__).resolve().parents[2] / "lexicons" / "data" / "grc-morphgnt.tsv.gz"
Analysis = tuple[str, str, str]  # lemma, pos, MorphGNT parse code


def printed_tokens() -> list[tuple[str, Analysis]]:
    """(printed word, analysis) for every token of the New Testament whose lemma is not a proper noun."""
    tokens = []
    for book in range(1, 28):
        for row in pysblgnt.morphgnt_rows(book):
            if row["lemma"][:1].isupper():
                continue  # proper nouns are not game words
            pos = morphology.pos_code(row["ccat-pos"])
            tokens.append((row["word"], (row["lemma"], pos, row["ccat-parse"])))
    return tokens


def code_of(pos: str, parse: dict[str, str]) -> str:
    code = "".join(parse.get(name, "-") for name in morphology.FIELDS)
    assert morphology.parse_from_code(pos, code) == parse
    return code


def missing(index: dict[str, set[Analysis]]) -> list[tuple[str, Analysis]]:
    return [(word, analysis) for word, analysis in printed_tokens() if analysis not in index.get(greek_key(word), ())]


@pytest.fixture(scope="module")
def book_files() -> list[Path]:
    return sorted((Path(pysblgnt.__file__).parent / "sblgnt").glob("*-morphgnt.txt"))


def test_the_loader_keys_every_printed_word_with_its_analysis(book_files):
    index: dict[str, set[Analysis]] = defaultdict(set)
    for record in read_morphgnt(book_files):
        index[greek_key(record.form)].add((record.lemma, record.pos, code_of(record.pos, record.parse)))
    assert missing(index) == []


def test_the_bundled_lexicon_keys_every_printed_word_with_its_analysis():
    index: dict[str, set[Analysis]] = defaultdict(set)
    with gzip.open(BUNDLED, "rt", encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            code = row["parse"] or "-" * len(morphology.FIELDS)  # an analysis without fields is written empty
            index[greek_key(row["form"])].add((row["lemma"], row["pos"], code))
    assert missing(index) == []


def test_printed_ouk_ouch_and_ex_are_their_own_forms(tmp_path):
    path = tmp_path / "mt.txt"
    path.write_text(
        "040101 D- -------- οὐκ οὐκ οὐ οὐ\n040102 D- -------- Οὐχ Οὐχ οὐ οὐ\n040103 P- -------- ἐξ ἐξ ἐκ ἐκ\n",
        encoding="utf-8",
    )
    found = {(r.form, r.lemma, r.pos) for r in read_records("morphgnt", [path])}
    assert found == {("οὐ", "οὐ", "D"), ("οὐκ", "οὐ", "D"), ("οὐχ", "οὐ", "D"), ("ἐκ", "ἐκ", "P"), ("ἐξ", "ἐκ", "P")}


def test_a_printed_form_with_the_key_of_the_normalised_one_is_not_added_again(tmp_path):
    path = tmp_path / "mt.txt"
    path.write_text("040101 C- -------- Καὶ Καὶ καί καί\n", encoding="utf-8")
    assert [r.form for r in read_records("morphgnt", [path])] == ["καί"]
