"""English keys fold accents (CAFE for café): recompute the keys of English entries imported before, which kept them.

Only entries whose key has a letter outside A–Z can change; ENABLE (plain a–z) is untouched."""

import unicodedata

from django.db import migrations


def _english_key(text: str) -> str:
    """The rule as of this migration (lexicons.normalise.english_key), frozen here."""
    decomposed = unicodedata.normalize("NFD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", bare).upper()


def fold_english_keys(apps, schema_editor) -> None:
    entry_model = apps.get_model("lexicons", "Entry")
    changed = []
    rows = entry_model.objects.filter(lexicon__language="eng").exclude(key__regex=r"^[A-Z]*$").only("pk", "form", "key")
    for entry in rows.iterator(chunk_size=5000):
        key = _english_key(entry.form)
        if key != entry.key:
            entry.key = key
            changed.append(entry)
    entry_model.objects.bulk_update(changed, ["key"], batch_size=5000)


class Migration(migrations.Migration):
    dependencies = [("lexicons", "0002_one_entry_index")]

    operations = [migrations.RunPython(fold_english_keys, migrations.RunPython.noop)]
