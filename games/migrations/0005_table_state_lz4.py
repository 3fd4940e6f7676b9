"""A table's state compressed with lz4 on PostgreSQL, where the server has it.

A long Grabble game's state (55 kB of JSON at the end, kept out of line and compressed) is written on every move:
with PostgreSQL's default compression (pglz) that update took 2.5 ms, with lz4 1.4-1.7 ms, at about the same size
(bench/README.md, "Continued (2026-11-27, night)"). Only new values are compressed the new way; a server built
without lz4 keeps the default, and SQLite has no such setting.
"""

from django.db import DatabaseError, migrations, transaction


def _set_compression(apps, schema_editor, method: str) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    table = connection.ops.quote_name(apps.get_model("games", "Table")._meta.db_table)
    try:
        with transaction.atomic(using=connection.alias):  # a savepoint: a refusal leaves the migration going
            schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN state SET COMPRESSION {method}")
    except DatabaseError:  # "compression method lz4 not supported": the server was built without it
        pass


def lz4(apps, schema_editor) -> None:
    _set_compression(apps, schema_editor, "lz4")


def default(apps, schema_editor) -> None:
    _set_compression(apps, schema_editor, "default")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_move_recordable"),
    ]

    operations = [migrations.RunPython(lz4, default)]
