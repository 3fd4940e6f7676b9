"""Fixtures of the learning tests: the recording game of ``encounter_factory`` registered, its lexicon, two pupils."""

import pytest

from games.rules import GAMES
from learning import services
from tests.learning import encounter_factory as f


@pytest.fixture(autouse=True)
def recorder(monkeypatch):
    monkeypatch.setitem(GAMES, f.SLUG, f.RULES)


@pytest.fixture
def lexicon(db):
    return f.make_lexicon()


@pytest.fixture
def pupils(classroom, student):
    return [student, services.join_classroom(classroom.join_code, "Βασίλης")]
