"""Streaming readers for the lexicon formats teachers upload. Each yields :class:`Record` objects one at a time,
so memory stays bounded however large the file; :mod:`lexicons.services` turns them into rows in batches.

Formats (``FORMATS``):

- ``words``: one word a line, optionally a tab and a frequency (a number). Blank lines and lines starting with
  ``#`` are skipped.
- ``csv``: comma- or tab-separated (tab when the file is ``.tsv`` or its first line has a tab), columns
  ``form, lemma, pos, parse, gloss, frequency`` in that order; only ``form`` is required. A first row with a cell
  ``form`` is a header, and then its column names (same names, any order) are used instead.
  ``parse`` is empty, a JSON object (``{"case": "N"}``), ``name=value`` pairs separated by ``;``, or, for a Greek
  part of speech (``N-``, ``V-``, ``RA`` …), a MorphGNT 8-character code (``----NSM-``).
- ``morphgnt``: MorphGNT SBLGNT token files (7 columns, or 8 with the Robinson code of the PyPI copy). Tokens are
  counted per analysis: the count is the frequency. Movable ν gives both forms; the printed form is added
  where its key differs from the normalised one (οὐκ and οὐχ beside οὐ, ἐξ beside ἐκ, elided δι’ beside διά), with
  the analysis of the normalised word; proper nouns (capitalised lemmas, MorphGNT's convention) are left out.
- ``hunspell``: a ``.dic`` and its ``.aff``, expanded by :mod:`lexicons.hunspell`; the lemma is the stem.
  Abbreviations, acronyms and symbols (:mod:`lexicons.abbreviations`) are left out.

Every problem raises :class:`LexiconImportError` naming the file and line. What an upload may expand to is bounded
while it is read (:class:`Limits`): the text after decompression, the length of a line, the forms of one Hunspell
stem. Files are UTF-8 (a UTF-8 byte-order mark
is fine; gzip-compressed files are read transparently); Hunspell files use the encoding their ``.aff`` declares.
"""

import csv
import gzip
import json
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, cast

from lexicons import abbreviations, hunspell, morphology
from lexicons.normalise import greek_key, movable_nu_variants

DEFAULT_MAX_BYTES = 50 * 1024 * 1024
MAX_JSON_DEPTH = 2  # a parse column's JSON is one object of text values
FORMATS = {
    "words": "Word list (one word a line, optional tab + frequency)",
    "csv": "CSV/TSV (form, lemma, pos, parse, gloss, frequency)",
    "morphgnt": "MorphGNT (SBLGNT token files)",
    "hunspell": "Hunspell .dic + .aff",
}
CSV_COLUMNS = ("form", "lemma", "pos", "parse", "gloss", "frequency")
_GZIP_MAGIC = b"\x1f\x8b"


class LexiconImportError(Exception):
    """An upload that cannot be imported, with where the problem is (file and 1-based line)."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.file = file
        self.line = line
        where = ", ".join(part for part in (file, f"line {line}" if line else None) if part)
        super().__init__(f"{where}: {message}" if where else message)


@dataclass(frozen=True, slots=True)
class Limits:
    """What one upload may expand to, checked while it is read (the settings ``LEXICON_MAX_*`` fill it)."""

    text_bytes: int = 100 * 1024 * 1024  # all files together, after decompression
    line_bytes: int = 16 * 1024  # one line
    forms_per_stem: int = hunspell.DEFAULT_MAX_FORMS  # one Hunspell stem's forms


class Meter:
    """The text read so far by one upload's readers, against its :class:`Limits`."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.text_bytes = 0

    def read(self, size: int, name: str, line_no: int) -> None:
        self.text_bytes += size
        if self.text_bytes > self.limits.text_bytes:
            raise LexiconImportError(
                f"the upload expands to more than {self.limits.text_bytes / 1e6:.0f} MB of text once decompressed "
                "(the limit)",
                file=name,
                line=line_no,
            )


@dataclass(slots=True)
class Record:
    """One entry as read, before normalisation (the service computes the key)."""

    form: str
    lemma: str = ""
    pos: str = ""
    parse: dict[str, str] = field(default_factory=dict)
    gloss: str = ""
    frequency: float | None = None
    line: int = 0  # where it was read, for error messages (0 when it comes from many lines)
    file: str = ""


class Progress:
    """Bytes read so far out of the total, shared by the reader and whoever reports progress."""

    def __init__(self, total: int) -> None:
        self.total = max(total, 1)
        self.done = 0

    @property
    def fraction(self) -> float:
        return min(self.done / self.total, 1.0)


def check_files(paths: Iterable[Path], max_bytes: int = DEFAULT_MAX_BYTES) -> int:
    """Refuse missing, empty or oversized files before reading any; returns their total size."""
    total = 0
    for path in paths:
        if not os.path.exists(path):
            raise LexiconImportError("file not found", file=Path(path).name)
        size = os.path.getsize(path)
        if size == 0:
            raise LexiconImportError("the file is empty", file=Path(path).name)
        if size > max_bytes:
            raise LexiconImportError(
                f"the file is {size / 1e6:.1f} MB, over the limit of {max_bytes / 1e6:.1f} MB", file=Path(path).name
            )
        total += size
    return total


def _open_binary(path: Path) -> tuple[BinaryIO, BinaryIO]:
    """(raw file, stream to read): gzip files are decompressed on the fly; progress follows the raw file."""
    raw = open(path, "rb")  # noqa: SIM115 - closed by the caller
    if raw.read(2) == _GZIP_MAGIC:
        raw.seek(0)
        return raw, cast(BinaryIO, gzip.GzipFile(fileobj=raw))
    raw.seek(0)
    return raw, raw


def describe_bad_bytes(data: bytes, encoding: str = "UTF-8") -> str:
    """A teacher-readable guess at why ``data`` is not valid in ``encoding``."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data[:200]:
        return f"the file looks like UTF-16 (or is not a text file); save it as {encoding}"
    try:
        data.decode("cp1252")
    except UnicodeDecodeError:
        return f"the file is not valid {encoding} text"
    return f"the file is not {encoding}: it looks like Latin-1/Windows-1252; save it as {encoding}"


def read_lines(
    path: Path, progress: Progress | None = None, encoding: str = "utf-8", meter: Meter | None = None
) -> Iterator[tuple[int, str]]:
    """(line number, text without the line break) for each line, decoded strictly. No line longer than the limit
    (``meter.limits.line_bytes``) is ever held in memory, nor more text read than the upload's limit."""
    name = Path(path).name
    meter = meter or Meter()
    longest = meter.limits.line_bytes
    raw, stream = _open_binary(path)
    start = raw.tell()
    with raw, stream:
        for line_no, data in enumerate(iter(lambda: stream.readline(longest + 1), b""), 1):
            meter.read(len(data), name, line_no)
            if len(data) > longest and not (len(data) == longest + 1 and data.endswith(b"\n")):
                raise LexiconImportError(
                    f"the line is longer than the limit of {longest:,} bytes", file=name, line=line_no
                )
            if line_no == 1:
                if data.startswith((b"\xff\xfe", b"\xfe\xff")):
                    raise LexiconImportError(describe_bad_bytes(data, encoding.upper()), file=name, line=1)
                if data.startswith(b"\xef\xbb\xbf"):
                    data = data[3:]
            if b"\x00" in data:
                raise LexiconImportError(describe_bad_bytes(data, encoding.upper()), file=name, line=line_no)
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                raise LexiconImportError(describe_bad_bytes(data, encoding.upper()), file=name, line=line_no) from None
            if progress is not None:
                position = raw.tell()
                progress.done += position - start
                start = position
            yield line_no, text.rstrip("\r\n")


def _frequency(text: str, name: str, line_no: int) -> float | None:
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise LexiconImportError(f"frequency {text!r} is not a number", file=name, line=line_no) from None
    if value != value or value in (float("inf"), float("-inf")) or value < 0:
        raise LexiconImportError(f"frequency {text!r} must be a number of at least 0", file=name, line=line_no)
    return value


def read_word_list(path: Path, progress: Progress | None = None, meter: Meter | None = None) -> Iterator[Record]:
    """``words`` format."""
    name = Path(path).name
    for line_no, line in read_lines(path, progress, meter=meter):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) > 2:
            raise LexiconImportError("expected a word and at most one tab + frequency", file=name, line=line_no)
        word = parts[0].strip()
        if not word or any(ch.isspace() for ch in word):
            raise LexiconImportError(f"expected one word, found {parts[0]!r}", file=name, line=line_no)
        frequency = _frequency(parts[1], name, line_no) if len(parts) == 2 else None
        yield Record(form=word, frequency=frequency, line=line_no, file=name)


def parse_field(pos: str, text: str) -> dict[str, str]:
    """The ``parse`` column of a CSV row as a field dict (see the module docstring). Raises ``ValueError``."""
    text = text.strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except RecursionError:
            raise ValueError("the JSON is nested too deeply (expected one object of text values)") from None
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise ValueError("a JSON parse must be an object of text values")
        return {str(k): v for k, v in value.items()}
    if "=" in text:
        pairs = [pair.split("=", 1) for pair in text.split(";") if pair.strip()]
        if any(len(pair) != 2 or not pair[0].strip() for pair in pairs):
            raise ValueError(f"expected name=value pairs separated by ';', found {text!r}")
        return {name.strip(): value.strip() for name, value in pairs}
    if _is_greek_pos(pos):
        return morphology.parse_from_code(pos, text)
    raise ValueError(f"cannot read parse {text!r}: use JSON, name=value pairs, or a MorphGNT code with a Greek pos")


def _is_greek_pos(pos: str) -> bool:
    try:
        morphology.pos_code(pos)
    except ValueError:
        return False
    return True


def read_csv(path: Path, progress: Progress | None = None, meter: Meter | None = None) -> Iterator[Record]:
    """``csv`` format (CSV or TSV)."""
    name = Path(path).name
    lines = read_lines(path, progress, meter=meter)
    first = next(lines, None)
    if first is None:
        raise LexiconImportError("the file is empty", file=name)
    delimiter = "\t" if str(path).endswith((".tsv", ".tsv.gz")) or "\t" in first[1] else ","
    columns: tuple[str, ...] = CSV_COLUMNS
    rows = csv.reader((text for _, text in _chain_first(first, lines)), delimiter=delimiter)
    for row in _csv_rows(rows, name):
        line_no = rows.line_num  # every physical line is fed to the reader, so this is the file's line
        if not row or not any(cell.strip() for cell in row):
            continue
        if line_no == 1 and "form" in (cell.strip().lower() for cell in row):
            columns = _header(row, name)
            continue
        if len(row) > len(columns):
            raise LexiconImportError(
                f"{len(row)} columns, but at most {len(columns)} are expected ({', '.join(columns)})",
                file=name,
                line=line_no,
            )
        cells = dict(zip(columns, (cell.strip() for cell in row), strict=False))
        form = cells.get("form", "")
        if not form:
            raise LexiconImportError("the form column is empty", file=name, line=line_no)
        pos = cells.get("pos", "")
        try:
            parse = parse_field(pos, cells.get("parse", ""))
        except ValueError as exc:
            raise LexiconImportError(f"bad parse: {exc}", file=name, line=line_no) from None
        yield Record(
            form=form,
            lemma=cells.get("lemma", ""),
            pos=morphology.pos_code(pos) if _is_greek_pos(pos) else pos,
            parse=parse,
            gloss=cells.get("gloss", ""),
            frequency=_frequency(cells.get("frequency", ""), name, line_no),
            line=line_no,
            file=name,
        )


def _csv_rows(rows: Any, name: str) -> Iterator[list[str]]:
    """The reader's rows, its errors (a field over the csv module's limit, a stray NUL) named with their line."""
    while True:
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error as exc:
            line = rows.line_num
            if "field larger than field limit" in str(exc):
                raise LexiconImportError(
                    f"a field is longer than the limit of {csv.field_size_limit():,} characters (is a quote left "
                    "open?)",
                    file=name,
                    line=line,
                ) from None
            raise LexiconImportError(f"this line cannot be read as CSV ({exc})", file=name, line=line) from None
        yield row


def _header(row: list[str], name: str) -> tuple[str, ...]:
    columns = tuple(cell.strip().lower() for cell in row)
    unknown = [c for c in columns if c not in CSV_COLUMNS]
    if unknown:
        raise LexiconImportError(
            f"unknown column {unknown[0]!r} in the header (known: {', '.join(CSV_COLUMNS)})", file=name, line=1
        )
    return columns


def _chain_first(first: tuple[int, str], rest: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    yield first
    yield from rest


_BCV = re.compile(r"^\d{6}$")


def read_morphgnt(
    paths: Iterable[Path], progress: Progress | None = None, meter: Meter | None = None
) -> Iterator[Record]:
    """``morphgnt`` format: every distinct analysis of every form once, its token count as frequency.

    Tokens are counted before anything is yielded, so memory grows with the number of distinct analyses
    (about 20,000 for the whole New Testament), not with the number of tokens.
    """
    counts: Counter[tuple[str, str, str, str]] = Counter()
    for path in paths:
        name = Path(path).name
        for line_no, line in read_lines(path, progress, meter=meter):
            if not line.strip():
                continue
            columns = line.split()
            if len(columns) not in (7, 8):
                raise LexiconImportError(
                    f"a MorphGNT line has 7 or 8 columns, this one has {len(columns)}", file=name, line=line_no
                )
            bcv, pos, code = columns[:3]
            word, norm, lemma = columns[-3], columns[-2], columns[-1]
            if not _BCV.match(bcv):
                raise LexiconImportError(f"{bcv!r} is not a book/chapter/verse (BBCCVV)", file=name, line=line_no)
            try:
                pos = morphology.pos_code(pos)
                morphology.parse_from_code(pos, code)
            except ValueError as exc:
                raise LexiconImportError(str(exc), file=name, line=line_no) from None
            if lemma[:1].isupper():
                continue  # proper noun
            forms = movable_nu_variants(norm)
            printed = printed_form(word)
            if greek_key(printed) not in {greek_key(form) for form in forms}:
                forms.append(printed)  # οὐκ, οὐχ, ἐξ and elided δι’ where the normalised column has οὐ, ἐκ, διά
            for form in forms:
                counts[(form, lemma, pos, code)] += 1
    for (form, lemma, pos, code), count in counts.items():
        yield Record(form, lemma, pos, morphology.parse_from_code(pos, code), frequency=float(count))


def printed_form(word: str) -> str:
    """A word as printed in the text, as a lexicon form: lower case at the start of a sentence and a grave accent
    written acute (the grave only stands for an acute before another word)."""
    word = word[:1].lower() + word[1:]
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", word).replace("\u0300", "\u0301"))


def read_hunspell(
    dic_path: Path, aff_path: Path, progress: Progress | None = None, language: str = "", meter: Meter | None = None
) -> Iterator[Record]:
    """``hunspell`` format: every form of every stem; each stem's forms once. Stems that are abbreviations,
    acronyms or symbols in ``language`` (:mod:`lexicons.abbreviations`) are left out with their suffixed forms."""
    dic_name, aff_name = Path(dic_path).name, Path(aff_path).name
    meter = meter or Meter()
    aff_bytes = Path(aff_path).read_bytes()
    meter.read(len(aff_bytes), aff_name, 0)
    try:
        affixes = hunspell.read_affixes(aff_bytes, max_forms=meter.limits.forms_per_stem)
    except hunspell.HunspellError as exc:
        raise LexiconImportError(exc.message, file=aff_name, line=exc.line) from None
    if progress is not None:
        progress.done += os.path.getsize(aff_path)
    lines = read_lines(dic_path, progress, encoding=affixes.encoding, meter=meter)
    try:
        for stem in hunspell.iter_stems(affixes, lines):
            abbreviation = abbreviations.is_abbreviation(stem.text, language)
            for form in sorted(affixes.forms(stem)):
                if abbreviation and not abbreviations.is_prefixed(form, stem.text):
                    continue
                yield Record(form=form, lemma=stem.text, line=stem.line, file=dic_name)
    except hunspell.HunspellError as exc:
        raise LexiconImportError(exc.message, file=dic_name, line=exc.line) from None
    except LookupError:
        raise LexiconImportError(
            f"the affix file declares an unknown encoding {affixes.encoding!r}", file=aff_name
        ) from None


def split_hunspell_pair(paths: Iterable[Path]) -> tuple[Path, Path]:
    """(.dic, .aff) from the uploaded files, whatever their order."""
    paths = list(paths)
    dics = [p for p in paths if str(p).lower().endswith(".dic")]
    affs = [p for p in paths if str(p).lower().endswith(".aff")]
    if len(paths) != 2 or len(dics) != 1 or len(affs) != 1:
        raise LexiconImportError("a Hunspell lexicon needs exactly one .dic file and one .aff file")
    return dics[0], affs[0]


def read_records(
    fmt: str, paths: Iterable[Path], progress: Progress | None = None, language: str = "", limits: Limits | None = None
) -> Iterator[Record]:
    """Records from files of format ``fmt`` (a key of :data:`FORMATS`) for a lexicon of ``language`` (ISO 639-3),
    within ``limits`` (all the files together)."""
    paths = [Path(p) for p in paths]
    meter = Meter(limits)
    readers: dict[str, Callable[[], Iterator[Record]]] = {
        "words": lambda: (r for p in paths for r in read_word_list(p, progress, meter)),
        "csv": lambda: (r for p in paths for r in read_csv(p, progress, meter)),
        "morphgnt": lambda: read_morphgnt(paths, progress, meter),
        "hunspell": lambda: read_hunspell(*split_hunspell_pair(paths), progress, language, meter),
    }
    if fmt not in readers:
        raise LexiconImportError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    if not paths:
        raise LexiconImportError("no file given")
    return readers[fmt]()
