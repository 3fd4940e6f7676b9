"""The bundled Spanish and English lexicons give a meaning to at least 90% of their common forms (Zipf ≥ 3, the
frequency each file carries, from wordfreq)."""

import csv
import gzip
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "lexicons" / "data"
COMMON = 3.0
TARGET = 0.9


def _coverage(filename: str) -> tuple[int, int]:
    with gzip.open(DATA / filename, "rt", encoding="utf-8", newline="") as f:
        rows = csv.DictReader(f, delimiter="\t")
        common = [row for row in rows if row["frequency"] and float(row["frequency"]) >= COMMON]
    forms = {row["form"] for row in common}
    glossed = {row["form"] for row in common if row["gloss"].strip()}
    return len(glossed), len(forms)


@pytest.mark.parametrize("filename", ["spa-hunspell.tsv.gz", "eng-enable.tsv.gz"])
def test_most_common_forms_have_a_meaning(filename):
    glossed, common = _coverage(filename)
    assert common > 1000
    assert glossed / common >= TARGET, f"{filename}: {glossed:,} of {common:,} common forms have a meaning"


def test_meanings_read_as_expected():
    wanted = {("spa-hunspell.tsv.gz", "canciones"): "song", ("eng-enable.tsv.gz", "geese"): "birds"}
    for (filename, form), part in wanted.items():
        with gzip.open(DATA / filename, "rt", encoding="utf-8", newline="") as f:
            gloss = next(row["gloss"] for row in csv.DictReader(f, delimiter="\t") if row["form"] == form)
        assert part in gloss
