"""A game's history kept apart from its table's state, an entry per row (games.models.HistoryEntry).

A long Grabble game's state is mostly its plays, and a move changes or adds one of them; written whole on every
move, the state made a move's write grow with the game (bench/README.md, "Continued (2026-11-27, late)"). The
table's column now holds the rest of the state, each history list's length in its place. Existing tables are split
here (and joined back on the way down), with the history keys as they are at this migration.
"""

import django.db.models.deletion
from django.db import migrations, models

import games.models
from games.engine.game import stored_state, whole_state

HISTORY = {"grabble": ("plays",)}  # Game.history of each game that has one, at this migration


def _each_table(apps, schema_editor, change) -> None:
    """``change(entries, table_id, keys, state)`` for each table of a game with a history; the state it returns is
    saved in the column (``entries``: the HistoryEntry manager)."""
    alias = schema_editor.connection.alias
    tables = apps.get_model("games", "Table").objects.using(alias)
    entries = apps.get_model("games", "HistoryEntry").objects.using(alias)
    for game, keys in HISTORY.items():
        for table_id, state in tables.filter(game=game).values_list("id", "state").iterator():
            changed = change(entries, table_id, keys, state)
            if changed is not state:
                tables.filter(pk=table_id).update(state=changed)


def _split(entries, table_id: int, keys: tuple[str, ...], state: dict) -> dict:
    lists = {key: state[key] for key in keys if isinstance(state.get(key), list)}
    entries.bulk_create(
        entries.model(table_id=table_id, key=key, number=number, entry=entry)
        for key, found in lists.items()
        for number, entry in enumerate(found)
    )
    return stored_state(state, keys) if lists else state


def _join(entries, table_id: int, keys: tuple[str, ...], state: dict) -> dict:
    found: dict[str, list] = {}
    for key, entry in entries.filter(table_id=table_id).values_list("key", "entry"):
        found.setdefault(key, []).append(entry)  # in order: the model's ordering
    return whole_state(state, keys, found)


def split(apps, schema_editor) -> None:
    _each_table(apps, schema_editor, _split)


def join(apps, schema_editor) -> None:
    _each_table(apps, schema_editor, _join)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_table_state_lz4"),
    ]

    operations = [
        migrations.AlterField(
            model_name="table",
            name="state",
            field=games.models.StateField(),
        ),
        migrations.CreateModel(
            name="HistoryEntry",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(help_text="The state's key of the list (Game.history).", max_length=50)),
                ("number", models.PositiveIntegerField(help_text="The entry's place in its list, from 0.")),
                ("entry", models.JSONField()),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="history", to="games.table"
                    ),
                ),
            ],
            options={
                "ordering": ["table", "key", "number"],
                "constraints": [
                    models.UniqueConstraint(fields=("table", "key", "number"), name="unique_history_entry")
                ],
            },
        ),
        migrations.RunPython(split, join),
    ]
