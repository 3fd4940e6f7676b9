"""Fixtures for the live game framework: the toy game registered in GAMES, and lessons of it."""

import pytest

from games import selectors
from games.engine import WordSet
from games.models import Table
from games.rules import GAMES
from games.services import lessons
from learning import services as learning_services
from tests.games.toygame import TOY

WORDS = WordSet(["λόγος", "ἀγάπη"], language="grc")


@pytest.fixture
def toy_game(monkeypatch):
    """The toy game is playable, and every table's word list is a small in-memory one. Not autouse: the rules
    tests under ``tests/games/rules`` must see ``GAMES`` as it is."""
    monkeypatch.setitem(GAMES, TOY.slug, TOY)
    monkeypatch.setattr(selectors, "word_list_for", lambda lexicon_id, lexicon=None: WORDS)
    return TOY


@pytest.fixture
def students(classroom):
    return [learning_services.join_classroom(classroom.join_code, name) for name in ("Ana", "Βασίλης", "Chloé")]


@pytest.fixture
def lesson(toy_game, teacher, classroom, students):
    """A toy lesson: the three students at one table."""
    return lessons.start_lesson(teacher, classroom, "toy", None, {}, [[s.id for s in students]])


@pytest.fixture
def table(lesson) -> Table:
    return lesson.tables.get()


def seated(table: Table) -> list:
    """The users at ``table`` in seat order."""
    return [seat.student.user for seat in table.seats.select_related("student__user").order_by("number")]
