"""Expand a Hunspell ``.dic`` + ``.aff`` pair into every word form, with ``spylls`` reading the affix file.

Pure Python (no Django). Debian's ``unmunch`` is not used: about a third of what it prints is rejected by Hunspell
itself. This expansion applies what Hunspell applies when it checks a word: the stem's suffixes and prefixes,
their cross-products (both affixes marked ``Y``), and one level of continuation flags (affixes carried by an affix).
Compound words are not generated (the list would be unbounded; game words are not compounds anyway).

The ``.dic`` is read line by line by this module rather than by spylls so that memory stays bounded by one stem's
forms and every problem can be reported with its line number.
"""

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass

from spylls.hunspell.data.aff import Aff, Prefix, Suffix
from spylls.hunspell.readers.aff import Context, read_aff
from spylls.hunspell.readers.file_reader import BaseReader

# Aff settings whose value is a flag: a .dic may use these without an affix table of that name.
_FLAG_SETTINGS = (
    "NEEDAFFIX", "FORBIDDENWORD", "KEEPCASE", "NOSUGGEST", "CIRCUMFIX", "SUBSTANDARD", "WARN", "FORCEUCASE",
    "COMPOUNDFLAG", "COMPOUNDBEGIN", "COMPOUNDMIDDLE", "COMPOUNDEND", "ONLYINCOMPOUND", "COMPOUNDPERMITFLAG",
    "COMPOUNDFORBIDFLAG",
)  # fmt: skip
# Hunspell ignores a flag the affix file does not define, and real dictionaries have a few (es_ES: "rosar/RED/").
# Many of them mean the .aff is not the one written for this .dic.
MISMATCH_SHARE = 0.02
MISMATCH_MIN_LINES = 3
_COUNT_LINE = re.compile(r"^\d+\s*$")
# Morphological fields start at a tab, or at a space followed by a two-letter tag ("po:noun").
_FIELDS_START = re.compile(r"\t|\s+[a-z]{2}:")
_UNESCAPED_SLASH = re.compile(r"(?<!\\)/")


class HunspellError(ValueError):
    """A problem in the pair of files, with the 1-based line of the ``.dic`` (or ``.aff``) where it is."""

    def __init__(self, message: str, line: int | None = None, file: str = ".dic") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.file = file


@dataclass(frozen=True)
class Stem:
    line: int
    text: str
    flags: frozenset[str]
    had_unknown_flags: bool = False


class _TextReader(BaseReader):
    """spylls' reader over text already decoded by us (spylls would otherwise open the file itself)."""

    def __init__(self, text: str) -> None:
        super().__init__(io.StringIO(text))

    def reset_encoding(self, encoding: str) -> None:
        """The text is already decoded; a ``SET`` line changes nothing."""


class Affixes:
    """The affix file, read once; knows which flags it defines."""

    def __init__(self, aff_text: str) -> None:
        try:
            self.aff, self.context = _read_aff(aff_text)
        except HunspellError:
            raise
        except Exception as exc:  # spylls raises bare errors on malformed tables
            raise HunspellError(f"the affix file could not be read ({exc})", file=".aff") from exc
        self.defined_flags = set(self.aff.SFX) | set(self.aff.PFX)
        self.defined_flags |= {getattr(self.aff, name) for name in _FLAG_SETTINGS if getattr(self.aff, name, None)}
        for rule in self.aff.COMPOUNDRULE or ():
            self.defined_flags |= set(self.context.parse_flags(re.sub(r"[*?()]", "", rule.text)))

    @property
    def encoding(self) -> str:
        return self.context.encoding

    def parse_stem(self, line_no: int, line: str) -> Stem | None:
        """One ``stem/FLAGS  fields`` line of the .dic; ``None`` for blank lines."""
        match = _FIELDS_START.search(line)
        word = (line[: match.start()] if match else line).strip()
        if not word:
            return None
        flag_text = ""
        if not word.startswith("/"):
            parts = _UNESCAPED_SLASH.split(word, maxsplit=1)
            if len(parts) == 2:
                word, flag_text = parts
        word = word.replace("\\/", "/")
        try:
            flags = frozenset(self.context.parse_flags(flag_text))
        except (KeyError, IndexError) as exc:
            raise HunspellError(f"flag alias {flag_text!r} is not defined in the affix file", line_no) from exc
        return Stem(line_no, word, flags & self.defined_flags, bool(flags - self.defined_flags))

    def forms(self, stem: Stem) -> set[str]:
        """Every form of one stem (the stem itself unless it needs an affix or is forbidden)."""
        aff = self.aff
        if aff.FORBIDDENWORD and aff.FORBIDDENWORD in stem.flags:
            return set()
        if aff.ONLYINCOMPOUND and aff.ONLYINCOMPOUND in stem.flags:
            return set()
        forms: set[str] = set()
        if not _needs_affix(aff, stem.flags):
            forms.add(stem.text)
        prefixes = _matching(aff.PFX, stem.flags, stem.text)
        suffixes = _matching(aff.SFX, stem.flags, stem.text)
        for suffix in suffixes:
            suffixed = _add_suffix(stem.text, suffix)
            if not _needs_affix(aff, suffix.flags):
                forms.add(suffixed)
            for suffix2 in _matching(aff.SFX, suffix.flags, suffixed):
                forms.add(_add_suffix(suffixed, suffix2))
            if suffix.crossproduct:
                carried = [p for p in _matching(aff.PFX, suffix.flags, suffixed) if p.crossproduct]
                for prefix in [p for p in prefixes if p.crossproduct] + carried:
                    if prefix.cond_regexp.search(suffixed):
                        forms.add(_add_prefix(suffixed, prefix))
        for prefix in prefixes:
            prefixed = _add_prefix(stem.text, prefix)
            if not _needs_affix(aff, prefix.flags):
                forms.add(prefixed)
            if aff.COMPLEXPREFIXES:  # two prefixes only where the affix file allows them
                for prefix2 in _matching(aff.PFX, prefix.flags, prefixed):
                    forms.add(_add_prefix(prefixed, prefix2))
            if prefix.crossproduct:
                for suffix in _matching(aff.SFX, prefix.flags, prefixed):
                    if suffix.crossproduct:
                        forms.add(_add_suffix(prefixed, suffix))
        return forms


def _read_aff(text: str) -> tuple[Aff, Context]:
    return read_aff(_TextReader(text))


def _needs_affix(aff: Aff, flags: frozenset[str] | set[str]) -> bool:
    return bool(aff.NEEDAFFIX and aff.NEEDAFFIX in flags)


def _matching(table: dict, flags, word: str) -> list:
    """The affixes of ``table`` named by ``flags`` whose strip and condition fit ``word``."""
    found = []
    for flag in flags:
        for affix in table.get(flag, ()):
            if isinstance(affix, Suffix):
                fits = word.endswith(affix.strip) and affix.cond_regexp.search(word)
            else:
                fits = word.startswith(affix.strip) and affix.cond_regexp.search(word)
            if fits and len(affix.strip) < len(word):
                found.append(affix)
    return found


def _add_suffix(word: str, suffix: Suffix) -> str:
    return (word[: len(word) - len(suffix.strip)] if suffix.strip else word) + suffix.add


def _add_prefix(word: str, prefix: Prefix) -> str:
    return prefix.add + word[len(prefix.strip) :]


def read_affixes(aff_bytes: bytes) -> Affixes:
    """Read an affix file's bytes. Its ``SET`` line names its encoding (ISO 8859-1 when absent, as in Hunspell)."""
    if not aff_bytes.strip():
        raise HunspellError("the affix file is empty", file=".aff")
    head = aff_bytes[:4096].decode("ascii", errors="replace")
    declared = re.search(r"^SET\s+(\S+)", head, flags=re.MULTILINE)
    utf8_flags = re.search(r"^FLAG\s+UTF-8", head, flags=re.MULTILINE)
    encoding = "utf-8" if utf8_flags else (declared.group(1) if declared else "iso-8859-1")
    try:
        text = aff_bytes.decode(encoding)
    except LookupError as exc:
        raise HunspellError(f"the affix file declares an unknown encoding {encoding!r}", file=".aff") from exc
    except UnicodeDecodeError as exc:
        line = aff_bytes[: exc.start].count(b"\n") + 1
        raise HunspellError(f"the affix file is not valid {encoding} (as its SET line says)", line, ".aff") from exc
    return Affixes(text)


def iter_stems(affixes: Affixes, lines: Iterator[tuple[int, str]]) -> Iterator[Stem]:
    """The stems of a decoded .dic, given as (line number, text). The first line must be the word count.

    Raises :class:`HunspellError` when more than :data:`MISMATCH_SHARE` of the flagged stems use flags the affix
    file does not define (checked as the file streams and again at its end).
    """
    first = True
    flagged = unknown = 0
    first_unknown: Stem | None = None
    for line_no, line in lines:
        if first:
            first = False
            if not _COUNT_LINE.match(line):
                raise HunspellError("the first line of a .dic must be its number of words", line_no)
            continue
        stem = affixes.parse_stem(line_no, line.rstrip("\r\n"))
        if stem is None:
            continue
        if stem.flags or stem.had_unknown_flags:
            flagged += 1
        if stem.had_unknown_flags:
            unknown += 1
            first_unknown = first_unknown or stem
            if unknown >= 20 and unknown > MISMATCH_SHARE * flagged:
                raise _mismatch(first_unknown, unknown, flagged)
        yield stem
    if first:
        raise HunspellError("the .dic file is empty", 1)
    if first_unknown and unknown >= MISMATCH_MIN_LINES and unknown > MISMATCH_SHARE * flagged:
        raise _mismatch(first_unknown, unknown, flagged)


def _mismatch(first: Stem, unknown: int, flagged: int) -> HunspellError:
    return HunspellError(
        f"{unknown} of {flagged} stems use affix flags that the affix file does not define, starting with "
        f"{first.text!r}: is this the .aff that belongs with this .dic?",
        first.line,
    )
