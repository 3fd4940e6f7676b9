"""Expand a Hunspell ``.dic`` + ``.aff`` pair into every word form, with ``spylls`` reading the affix file.

Pure Python (no Django). Debian's ``unmunch`` is not used: about a third of what it prints is rejected by Hunspell
itself. This expansion applies what Hunspell applies when it checks a word: the stem's suffixes and prefixes,
their cross-products (both affixes marked ``Y``), and one level of continuation flags (affixes carried by an affix).
Compound words are not generated (the list would be unbounded; game words are not compounds anyway).

The ``.dic`` is read line by line by this module rather than by spylls so that memory stays bounded by one stem's
forms and every problem can be reported with its line number.

Affix conditions are Hunspell's small bracket language (literal characters, ``.``, ``[abc]``, ``[^abc]``), parsed
here into a :class:`Condition` and matched without regular expressions: a condition is checked character by
character, so no affix file can make matching slow. Anything else in a condition is refused with its line. One stem
may expand to at most ``max_forms`` forms (:meth:`Affixes.forms`), checked while they are generated.
"""

import codecs
import io
import operator
import re
from collections.abc import Callable, Iterator
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


# Encodings Hunspell itself knows (its SET values), as Python codec names: anything else is refused.
SUPPORTED_ENCODINGS = {
    "utf-8": "UTF-8",
    **{f"iso8859-{n}": f"ISO8859-{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 15)},
    "koi8-r": "KOI8-R",
    "koi8-u": "KOI8-U",
    "cp1251": "microsoft-cp1251",
    "tis-620": "TIS620-2533",
}
DEFAULT_MAX_FORMS = 20_000
DEFAULT_MAX_CHECKS = 2_000_000
# Characters with a meaning in regular expressions but none in a Hunspell condition: a condition using them was
# written as a regular expression (and Hunspell would not read it so either).
_REGEX_ONLY = set("()*+?{}|\\$")


class HunspellError(ValueError):
    """A problem in the pair of files, with the 1-based line of the ``.dic`` (or ``.aff``) where it is."""

    def __init__(self, message: str, line: int | None = None, file: str = ".dic") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.file = file


class Condition:
    """A Hunspell affix condition, matched at the end of a word (suffixes) or at its start (prefixes).

    Each position is ``None`` (``.``: any character) or (characters, negated) for a literal or a bracket."""

    __slots__ = ("any_only", "literal", "positions", "suffix", "tail", "text")

    def __init__(self, text: str, *, suffix: bool) -> None:
        self.text = text
        self.suffix = suffix
        self.positions = _parse_condition(text)
        self.any_only = all(p is None for p in self.positions)
        literal = all(p is not None and not p[1] and len(p[0]) == 1 for p in self.positions)
        self.literal = "".join(next(iter(p[0])) for p in self.positions if p is not None) if literal else None
        # The literal characters at the word's edge: a quick first check (-ar of [^c]ar).
        edge = reversed(self.positions) if suffix else iter(self.positions)
        tail = []
        for p in edge:
            if p is None or p[1] or len(p[0]) != 1:
                break
            tail.append(next(iter(p[0])))
        self.tail = "".join(reversed(tail) if suffix else tail)

    def __call__(self, word: str) -> bool:
        size = len(self.positions)
        if len(word) < size:
            return False
        if self.any_only:
            return True
        if self.literal is not None:
            return word.endswith(self.literal) if self.suffix else word.startswith(self.literal)
        part = word[len(word) - size :] if self.suffix else word[:size]
        for char, position in zip(part, self.positions, strict=True):
            if position is not None and (char in position[0]) is position[1]:
                return False
        return True


def _parse_condition(text: str) -> tuple[tuple[frozenset[str], bool] | None, ...]:
    """The positions of a condition; ``ValueError`` naming what is wrong."""
    if text == ".":
        return (None,)
    positions: list[tuple[frozenset[str], bool] | None] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == ".":
            positions.append(None)
        elif char == "[":
            end = text.find("]", i + 1)
            if end < 0:
                raise ValueError("a '[' without its ']'")
            inside = text[i + 1 : end]
            negated = inside.startswith("^")
            chars = inside[1:] if negated else inside
            if not chars:
                raise ValueError("an empty bracket")
            bad = sorted(set(chars) & (_REGEX_ONLY | {"[", "^"}))
            if bad:
                raise ValueError(f"{bad[0]!r} inside a bracket")
            positions.append((frozenset(chars), negated))
            i = end
        elif char in _REGEX_ONLY or char in "]^":
            raise ValueError(f"{char!r}")
        else:
            positions.append((frozenset(char), False))
        i += 1
    return tuple(positions)


def check_conditions(aff_text: str) -> None:
    """Refuse an affix file with a condition outside Hunspell's bracket language, naming its line."""
    for line_no, line in enumerate(aff_text.splitlines(), 1):
        fields = line.split()
        if len(fields) < 5 or fields[0] not in ("SFX", "PFX") or fields[4].startswith("#"):
            continue
        if fields[2] in ("Y", "N") and fields[3].isdigit():
            continue  # a table's header line
        try:
            _parse_condition(fields[4])
        except ValueError as exc:
            raise HunspellError(
                f"the affix condition {fields[4]!r} is not a Hunspell condition ({exc}): use letters, '.', "
                "[abc] or [^abc]",
                line_no,
                ".aff",
            ) from None


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

    def __init__(self, aff_text: str, *, encoding: str = "utf-8", max_forms: int = DEFAULT_MAX_FORMS) -> None:
        check_conditions(aff_text)  # before spylls compiles them as regular expressions
        self.max_forms = max_forms
        self._encoding = encoding
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
        self._conditions: dict[tuple[bool, str], Condition] = {}
        self._sfx = {flag: self._index(affixes, True) for flag, affixes in self.aff.SFX.items()}
        self._pfx = {flag: self._index(affixes, False) for flag, affixes in self.aff.PFX.items()}

    def _index(self, affixes: list, suffix: bool) -> "_Rules":
        """One flag's affixes by the character they need at the word's edge (last for suffixes, first for
        prefixes), so a word is only checked against the affixes that can apply to it."""
        by_char: dict[str, list[tuple[Suffix | Prefix, Callable[[str], bool]]]] = {}
        anywhere: list[tuple[Suffix | Prefix, Callable[[str], bool]]] = []
        for affix in affixes:
            edge, fits = self._fits(affix, suffix)
            if edge is None:
                continue
            if edge:
                by_char.setdefault(edge[-1] if suffix else edge[0], []).append((affix, fits))
            else:
                anywhere.append((affix, fits))
        return _Rules(by_char, anywhere, len(affixes), -1 if suffix else 0)

    def _condition(self, affix: Suffix | Prefix, suffix: bool) -> Condition:
        key = (suffix, affix.condition)
        if key not in self._conditions:
            self._conditions[key] = Condition(affix.condition, suffix=suffix)
        return self._conditions[key]

    def _fits(self, affix: Suffix | Prefix, suffix: bool) -> tuple[str | None, Callable[[str], bool]]:
        """(what the word must end or start with, or None when the affix never applies; whether the affix applies
        to a word: the word is longer than the strip, has it, and meets the condition)."""
        condition = self._condition(affix, suffix)
        strip, shortest = affix.strip, len(affix.strip)
        tail = condition.tail
        # The word must have both the strip and the condition's literal edge: one of them contains the other or
        # the affix never applies.
        if suffix:
            edge = strip if strip.endswith(tail) else tail if tail.endswith(strip) else None
        else:
            edge = strip if strip.startswith(tail) else tail if tail.startswith(strip) else None
        if edge is None:
            return None, lambda word: False
        has = operator.methodcaller("endswith" if suffix else "startswith", edge)
        if condition.any_only or condition.literal is not None:
            if len(condition.positions) <= shortest + 1:
                return edge, lambda word: len(word) > shortest and has(word)
            size = len(condition.positions)
            return edge, lambda word: len(word) > shortest and len(word) >= size and has(word)
        return edge, lambda word: len(word) > shortest and has(word) and condition(word)

    @property
    def encoding(self) -> str:
        """The Python codec of the affix file (and so of its .dic)."""
        return self._encoding

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
        """Every form of one stem (the stem itself unless it needs an affix or is forbidden).

        Raises :class:`HunspellError` (with the stem's line) as soon as the stem has more than ``max_forms`` forms,
        or needs more than :data:`DEFAULT_MAX_CHECKS` affix checks (an affix file built to make expansion slow).
        """
        aff = self.aff
        if aff.FORBIDDENWORD and aff.FORBIDDENWORD in stem.flags:
            return set()
        if aff.ONLYINCOMPOUND and aff.ONLYINCOMPOUND in stem.flags:
            return set()
        forms: set[str] = set()
        budget = _Budget(stem, self.max_forms, forms)
        matching = self._matching
        if not _needs_affix(aff, stem.flags):
            forms.add(stem.text)
        prefixes = matching(self._pfx, stem.flags, stem.text, budget)
        suffixes = matching(self._sfx, stem.flags, stem.text, budget)
        for suffix in suffixes:
            suffixed = _add_suffix(stem.text, suffix)
            if not _needs_affix(aff, suffix.flags):
                forms.add(suffixed)
            for suffix2 in matching(self._sfx, suffix.flags, suffixed, budget):
                forms.add(_add_suffix(suffixed, suffix2))
            if suffix.crossproduct:
                carried = [p for p in matching(self._pfx, suffix.flags, suffixed, budget) if p.crossproduct]
                for prefix in [p for p in prefixes if p.crossproduct] + carried:
                    if self._condition(prefix, False)(suffixed):
                        forms.add(_add_prefix(suffixed, prefix))
            budget.check()
        for prefix in prefixes:
            prefixed = _add_prefix(stem.text, prefix)
            if not _needs_affix(aff, prefix.flags):
                forms.add(prefixed)
            if aff.COMPLEXPREFIXES:  # two prefixes only where the affix file allows them
                for prefix2 in matching(self._pfx, prefix.flags, prefixed, budget):
                    forms.add(_add_prefix(prefixed, prefix2))
            if prefix.crossproduct:
                for suffix in matching(self._sfx, prefix.flags, prefixed, budget):
                    if suffix.crossproduct:
                        forms.add(_add_suffix(prefixed, suffix))
            budget.check()
        budget.check()
        return forms

    @staticmethod
    def _matching(rules: dict[str, "_Rules"], flags: frozenset[str] | set[str], word: str, budget: "_Budget") -> list:
        """The affixes among ``rules`` named by ``flags`` that apply to ``word``."""
        found = []
        for flag in flags:
            group = rules.get(flag)
            if group is None:
                continue
            budget.checks += group.size
            for affix, fits in group.anywhere:
                if fits(word):
                    found.append(affix)
            if word:
                for affix, fits in group.by_char.get(word[group.edge], ()):
                    if fits(word):
                        found.append(affix)
        budget.spent()
        return found


@dataclass(frozen=True, slots=True)
class _Rules:
    """One flag's affixes: ``by_char`` those needing a given character at the word's ``edge`` (index -1 or 0),
    ``anywhere`` the others; ``size`` how many the flag has."""

    by_char: dict[str, list]
    anywhere: list
    size: int
    edge: int


class _Budget:
    """How much one stem's expansion may produce and check."""

    __slots__ = ("checks", "forms", "max_forms", "stem")

    def __init__(self, stem: Stem, max_forms: int, forms: set[str]) -> None:
        self.stem = stem
        self.max_forms = max_forms
        self.forms = forms
        self.checks = 0

    def spent(self) -> None:
        if self.checks > DEFAULT_MAX_CHECKS:
            raise HunspellError(
                f"the stem {self.stem.text!r} needs more than {DEFAULT_MAX_CHECKS:,} affix checks to expand: "
                "the affix file has too many affixes carrying other affixes",
                self.stem.line,
            )
        self.check()

    def check(self) -> None:
        if len(self.forms) > self.max_forms:
            raise HunspellError(
                f"the stem {self.stem.text!r} expands to more than {self.max_forms:,} forms (the limit per stem)",
                self.stem.line,
            )


def _read_aff(text: str) -> tuple[Aff, Context]:
    return read_aff(_TextReader(text))


def _needs_affix(aff: Aff, flags: frozenset[str] | set[str]) -> bool:
    return bool(aff.NEEDAFFIX and aff.NEEDAFFIX in flags)


def _add_suffix(word: str, suffix: Suffix) -> str:
    return (word[: len(word) - len(suffix.strip)] if suffix.strip else word) + suffix.add


def _add_prefix(word: str, prefix: Prefix) -> str:
    return prefix.add + word[len(prefix.strip) :]


def read_affixes(aff_bytes: bytes, *, max_forms: int = DEFAULT_MAX_FORMS) -> Affixes:
    """Read an affix file's bytes. Its ``SET`` line names its encoding (ISO 8859-1 when absent, as in Hunspell);
    only the encodings Hunspell knows (:data:`SUPPORTED_ENCODINGS`) are accepted."""
    if not aff_bytes.strip():
        raise HunspellError("the affix file is empty", file=".aff")
    head = aff_bytes[:4096].decode("ascii", errors="replace")
    declared = re.search(r"^SET[ \t]+(\S+)", head, flags=re.MULTILINE)
    utf8_flags = re.search(r"^FLAG\s+UTF-8", head, flags=re.MULTILINE)
    if declared:
        encoding = supported_encoding(declared.group(1))
        if encoding is None:
            raise HunspellError(
                f"the SET line names the encoding {declared.group(1)!r}, which is not supported "
                f"(use {', '.join(sorted(set(SUPPORTED_ENCODINGS.values()) - {'UTF-8'}))} or UTF-8)",
                head[: declared.start()].count("\n") + 1,
                ".aff",
            )
    else:
        encoding = "iso8859-1"
    if utf8_flags:
        encoding = "utf-8"
    try:
        text = aff_bytes.decode(encoding)
    except UnicodeDecodeError as exc:
        line = aff_bytes[: exc.start].count(b"\n") + 1
        named = SUPPORTED_ENCODINGS[encoding]
        raise HunspellError(f"the affix file is not valid {named} (as its SET line says)", line, ".aff") from exc
    return Affixes(text, encoding=encoding, max_forms=max_forms)


def supported_encoding(name: str) -> str | None:
    """The Python codec name of a ``SET`` value Hunspell supports, or None."""
    aliases = {"microsoft-cp1251": "cp1251", "tis620-2533": "tis-620", "iscii-devanagari": ""}
    name = aliases.get(name.lower(), name)
    try:
        codec = codecs.lookup(name).name if name else ""
    except LookupError:
        return None
    return codec if codec in SUPPORTED_ENCODINGS else None


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
