"""Reads of lexicons for pages and other apps."""

import ast
import json
import unicodedata
from typing import Any

from django.db.models import F, Q, QuerySet
from django.shortcuts import get_object_or_404

from lexicons import morphology
from lexicons.betacode import BetaCodeError, looks_like_beta_code, to_greek
from lexicons.models import Entry, ImportJob, Lexicon
from lexicons.normalise import normalise

SEARCH_LIMIT = 200
GREEK = ("grc", "ell")


def lexicon_list() -> QuerySet[Lexicon]:
    """Every lexicon (any logged-in user may browse them), bundled first."""
    return Lexicon.objects.select_related("owner").order_by(F("slug").asc(nulls_last=True), "language", "name")


def lexicon_or_404(pk: int) -> Lexicon:
    return get_object_or_404(Lexicon, pk=pk)


def import_job_or_404(pk: int) -> ImportJob:
    return get_object_or_404(ImportJob.objects.select_related("lexicon"), pk=pk)


def last_import(lexicon: Lexicon) -> ImportJob | None:
    return lexicon.imports.first()


def import_running(lexicon: Lexicon) -> bool:
    """Whether an import into ``lexicon`` is queued or running."""
    return lexicon.imports.filter(status__in=["queued", "running"]).exists()


def usable_lexicons(language: str | None = None) -> QuerySet[Lexicon]:
    """Lexicons games can use now (a complete version exists), optionally of one language."""
    lexicons = Lexicon.objects.filter(version__gt=0)
    return lexicons.filter(language=language) if language else lexicons


def search(lexicon: Lexicon, query: str, limit: int = SEARCH_LIMIT) -> list[dict[str, Any]]:
    """Entries of the current version whose key is the query's key (which finds the form as written too), or whose
    lemma is the query as written (not indexed: a scan of the lexicon, fine for the browse page).

    A Greek lexicon reads a query typed in Beta Code (``lo/gos``) as the Greek it spells, as the games do; text that
    is neither Greek nor Beta Code finds nothing.

    Each result carries ``description``: the parse in words (Greek parts of speech) or the raw part of speech; a gloss
    stored as a list is given as prose."""
    query = unicodedata.normalize("NFC", query.strip())
    if not query or not lexicon.is_usable:
        return []
    if lexicon.language in GREEK and looks_like_beta_code(query):
        try:
            query = to_greek(query)
        except BetaCodeError:
            return []
    key = normalise(query, lexicon.language)
    entries = (
        Entry.objects.filter(lexicon=lexicon, version=lexicon.version)
        .filter(Q(key=key) | Q(lemma=query))
        .order_by("key", F("frequency").desc(nulls_last=True), "form", "pk")[:limit]
    )
    return [{**_as_dict(entry), "description": describe(entry.pos, entry.parse)} for entry in entries]


def _as_dict(entry: Entry) -> dict[str, Any]:
    return {
        "form": entry.form,
        "key": entry.key,
        "lemma": entry.lemma,
        "pos": entry.pos,
        "parse": entry.parse,
        "gloss": gloss_prose(entry.gloss),
        "frequency": entry.frequency,
    }


def gloss_prose(gloss: str) -> str:
    """A gloss stored as a Python or JSON list of senses (``['I am absent', 'I go away']``) as prose, the senses
    joined by "; "; any other gloss as it is."""
    text = gloss.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return gloss
    for parse in (json.loads, ast.literal_eval):
        try:
            value = parse(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return "; ".join(item.strip() for item in value if item.strip())
    return gloss


def describe(pos: str, parse: dict[str, str]) -> str:
    """The analysis in words where the vocabulary is known (Greek), else the part of speech and fields as given."""
    try:
        return morphology.describe(pos, parse)
    except (ValueError, KeyError):
        fields = ", ".join(f"{name} {value}" for name, value in parse.items())
        return ", ".join(part for part in (pos, fields) if part)


def job_status(job: ImportJob) -> dict[str, Any]:
    """What the progress page polls."""
    return {
        "status": job.status,
        "percent": job.percent,
        "entries": job.entries_done,
        "error": job.error_message,
        "finished": job.is_finished,
    }
