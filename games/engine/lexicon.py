"""What a rules module may ask of a lexicon. Rules never touch the database: the services pass an
object with this interface (``lexicons.services`` provides the real one; tests use :class:`WordSet`).
"""

from collections.abc import Iterable, Mapping
from typing import Any, Protocol


class WordList(Protocol):
    @property
    def language(self) -> str:
        """The ISO 639-3 code of the list's language."""

    def normalise(self, text: str) -> str:
        """The key cards or tiles spell for ``text`` (``lexicons.normalise`` defines it per language)."""

    def is_word(self, key: str) -> bool:
        """Whether ``key`` (already normalised) is a word of the lexicon."""

    def analyses(self, key: str) -> list[Mapping[str, Any]]:
        """Every analysis of ``key``: dicts with form, lemma, pos, parse (field dict), gloss."""

    def keys(self) -> frozenset[str]:
        """Every key of the word list, for rules that search it: the Grabble move finder builds its trie from them
        and caches it by this set. The same set on every call for one list, held already: no copy is made."""


class WordSet:
    """An in-memory word list: for tests and for small fixed lists."""

    def __init__(
        self,
        words: Iterable[str],
        language: str = "eng",
        analyses: Mapping[str, list[Mapping[str, Any]]] | None = None,
        normalise: Any = None,
    ) -> None:
        self.language = language
        self._normalise = normalise or (lambda text: text.upper())
        self._analyses = dict(analyses or {})
        self._keys = frozenset({self._normalise(w) for w in words} | set(self._analyses))

    def normalise(self, text: str) -> str:
        return self._normalise(text)

    def is_word(self, key: str) -> bool:
        return key in self._keys

    def analyses(self, key: str) -> list[Mapping[str, Any]]:
        return list(self._analyses.get(key, []))

    def keys(self) -> frozenset[str]:
        return self._keys
