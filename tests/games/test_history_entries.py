"""A game's history kept apart from its table's state (``games.models.HistoryEntry``): the column holds each history
list's length, every entry is a row, a save writes only the entries it changed (so a move's write does not grow with
the game), and ``Table.state`` is always the whole state, however the table was read.

The toy game keeps its played cards as a history here, as Grabble keeps its plays."""

import importlib

import pytest
from django.apps import apps
from django.db import connection, transaction

from games.models import HistoryEntry, Move, Table
from games.services import moves, table_rows
from tests.conftest import needs_postgresql
from tests.games.conftest import seated

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_history(toy_game, monkeypatch):
    monkeypatch.setattr(toy_game, "history", ("played",))
    return toy_game


def column(table_id: int) -> dict:
    """The state as the table's column holds it."""
    return Table.objects.filter(pk=table_id).values_list("state", flat=True).get()


def entries(table_id: int) -> list:
    return list(HistoryEntry.objects.filter(table_id=table_id, key="played").values_list("entry", flat=True))


def play_rounds(table: Table, rounds: int) -> None:
    """``rounds`` times, the seat on turn draws and plays its first card, through the move path."""
    users = seated(table)
    for _ in range(rounds):
        state = Table.objects.get(pk=table.pk).state
        turn = state["turn"]
        moves.apply_action(table.id, users[turn], {"type": "draw"})
        card = Table.objects.get(pk=table.pk).state["hands"][turn][0]
        moves.apply_action(table.id, users[turn], {"type": "play", "card": card})


def xmins(table_id: int) -> dict[int, str]:
    """Each entry's row version (PostgreSQL's ``xmin``: a rewritten row has a new one)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT number, xmin::text FROM {HistoryEntry._meta.db_table} WHERE table_id = %s",  # noqa: S608
            [table_id],
        )
        return dict(cursor.fetchall())


def test_the_column_holds_the_lengths_and_every_entry_is_a_row(table, with_history):
    play_rounds(table, 3)
    whole = Table.objects.get(pk=table.pk).state
    assert len(whole["played"]) == 3
    assert column(table.pk)["played"] == 3
    assert entries(table.pk) == whole["played"]
    assert {k: v for k, v in column(table.pk).items() if k != "played"} == {
        k: v for k, v in whole.items() if k != "played"
    }
    # The move path's locked read makes the same whole state.
    with transaction.atomic():
        locked, _ = table_rows.locked_with_seats(table.pk)
    assert locked.state == whole


def test_a_game_without_a_history_keeps_its_whole_state_in_the_column(table, toy_game):
    play_rounds(table, 2)
    assert column(table.pk) == Table.objects.get(pk=table.pk).state
    assert not HistoryEntry.objects.filter(table=table).exists()


@needs_postgresql("row versions (xmin) are PostgreSQL's")
def test_a_move_writes_its_new_entry_and_leaves_the_others(table, with_history):
    play_rounds(table, 3)
    before = xmins(table.pk)
    play_rounds(table, 1)
    after = xmins(table.pk)
    assert set(after) == {0, 1, 2, 3}
    assert {n: after[n] for n in before} == before  # the entries the move did not change are not written again


@needs_postgresql("row versions (xmin) are PostgreSQL's")
def test_a_save_rewrites_only_a_changed_entry(table, with_history):
    play_rounds(table, 3)
    table = Table.objects.get(pk=table.pk)
    before = xmins(table.pk)
    state = table.state
    state["played"] = [*state["played"][:1], 999, *state["played"][2:]]  # entry 1 replaced, as own_entry does
    table.state = state
    table.save(update_fields=["state"])
    after = xmins(table.pk)
    assert (after[0], after[2]) == (before[0], before[2])
    assert after[1] != before[1]
    assert Table.objects.get(pk=table.pk).state["played"][1] == 999


@pytest.mark.parametrize("path", ["orm", "move"])
def test_a_shorter_history_loses_its_tail(table, with_history, teacher, path):
    play_rounds(table, 3)
    table = Table.objects.get(pk=table.pk)
    kept = table.state["played"][:1]
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        table.state = {**table.state, "played": kept}
        if path == "orm":
            table.save(update_fields=["state"])
        else:  # the move path's own statement
            table.version += 1
            move = Move(table=table, seq=table.version, actor=teacher, action={"type": "skip"}, events=[])
            table_rows.save_move(table, ("state", "version"), move)
    assert entries(table.pk) == kept
    assert column(table.pk)["played"] == 1
    assert Table.objects.get(pk=table.pk).state["played"] == kept


def test_many_tables_are_read_whole_with_their_history_in_one_more_query(
    lesson, with_history, django_assert_num_queries
):
    table = lesson.tables.get()
    play_rounds(table, 2)
    with django_assert_num_queries(2):
        (read,) = lesson.tables.prefetch_related("history")
        assert len(read.state["played"]) == 2
    # Read through another model's row (select_related), the history is read when the state is first asked for.
    move = Move.objects.select_related("table").filter(table=table).last()
    assert move is not None
    with django_assert_num_queries(1):
        assert move.table.state == read.state


def test_a_missing_entry_is_an_error_not_a_shorter_history(table, with_history):
    play_rounds(table, 2)
    HistoryEntry.objects.filter(table=table, number=1).delete()
    with pytest.raises(ValueError, match="played has 1 entries stored, not 2"):
        Table.objects.get(pk=table.pk).state  # noqa: B018 - reading it is the test


def test_the_migration_splits_whole_states_and_joins_them_back(grabble_table):
    """Tables saved before the history was kept apart hold it whole in the column; the migration splits them (and,
    on the way down, joins them back). A whole list read from the column is taken as it is."""
    migration = importlib.import_module("games.migrations.0006_history_entries")
    plays = [{"seat": 0, "words": ["λόγος"]}, {"seat": 1, "words": ["ἀρχή"]}]
    whole = {**grabble_table.state, "plays": plays}
    Table.objects.filter(pk=grabble_table.pk).update(state=whole)  # as the column held it before
    assert Table.objects.get(pk=grabble_table.pk).state == whole
    editor = type("Editor", (), {"connection": connection})()
    migration.split(apps, editor)
    assert column(grabble_table.pk)["plays"] == 2
    assert list(HistoryEntry.objects.filter(table=grabble_table).values_list("entry", flat=True)) == plays
    assert Table.objects.get(pk=grabble_table.pk).state == whole
    migration.join(apps, editor)
    assert column(grabble_table.pk) == whole


@pytest.fixture
def grabble_table(teacher, classroom) -> Table:
    from tests.games.test_grabble_table import start_grabble

    return start_grabble(teacher, classroom)
