"""Pablo through the real move path: a lesson in any class, and two players matching the same discard at once."""

import threading

import pytest
from django.db import connection

from games.engine import AppError
from games.forms import offered_games
from games.models import Table
from games.rules.pablo import RULES
from games.services import lessons, moves
from learning import services as learning_services
from learning.models import Classroom
from tests.games.conftest import seated
from tests.games.rules.pablo_helpers import card, playing

pytestmark = pytest.mark.django_db


def test_pablo_is_offered_in_every_class_and_needs_no_lexicon(teacher):
    for language in (Classroom.Language.GREEK, Classroom.Language.SPANISH):
        room = learning_services.create_classroom(teacher, f"Class {language}", language)
        assert "pablo" in offered_games(room, show_all=False)


def race_table(teacher, classroom, students) -> Table:
    """Three players; the top of the discard pile is the 5♦, and seats 1 and 2 each hold a five."""
    lesson = lessons.start_lesson(teacher, classroom, "pablo", None, {}, [[s.id for s in students]])
    table = lesson.tables.get()
    state = playing(
        [["2H", "3H", "4H", "6H"], ["2S", "3S", "4S", "5S"], ["2C", "3C", "4C", "5C"]], draw=["9D"], discard=["5D"]
    )
    state.update(rng=table.state["rng"], last_move=None)
    Table.objects.filter(pk=table.pk).update(state=state)
    table.refresh_from_db()
    return table


def test_a_match_goes_through_the_service_and_the_second_is_too_late(teacher, classroom, students):
    table = race_table(teacher, classroom, students)
    users = seated(table)
    move = moves.apply_action(table.id, users[1], {"type": "match", "owner": 1, "slot": 3, "top": card("5D")})
    assert [ev["type"] for ev in move.events] == ["matched"]
    with pytest.raises(AppError) as late:
        moves.apply_action(table.id, users[2], {"type": "match", "owner": 2, "slot": 3, "top": card("5D")})
    assert late.value.code == "too_late"


@pytest.mark.django_db(transaction=True)
def test_simultaneous_matches_of_one_discard_exactly_one_applies(teacher, classroom, students):
    table = race_table(teacher, classroom, students)
    users = seated(table)
    barrier = threading.Barrier(2)
    results: dict[int, object] = {}

    def match(seat: int) -> None:
        barrier.wait()
        try:
            action = {"type": "match", "owner": seat, "slot": 3, "top": card("5D")}
            results[seat] = moves.apply_action(table.id, users[seat], action).seq
        except AppError as error:
            results[seat] = error.code
        finally:
            connection.close()

    threads = [threading.Thread(target=match, args=(seat,)) for seat in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results.values(), key=str) == sorted([1, "too_late"], key=str)
    winner = next(seat for seat, result in results.items() if result == 1)
    table.refresh_from_db()
    assert table.version == 1
    assert table.state["matched_by"] == winner
    assert table.state["fields"][winner][3] is None
    loser = 3 - winner
    assert table.state["fields"][loser][3] is not None, "the second match changed nothing"
    assert RULES.view(table.state, loser)["body"]["match"]["matched_by"] == winner
