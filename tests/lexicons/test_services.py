"""Imports (staged version, atomic swap), word lists and their cache, the import job, bundled lexicons."""

import gzip

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from lexicons import morphology, selectors, services
from lexicons.loaders import LexiconImportError
from lexicons.models import Entry, ImportJob, Lexicon
from tests.conftest import needs_postgresql

pytestmark = pytest.mark.django_db


@pytest.fixture
def lexicon():
    return Lexicon.objects.create(name="Palabras", language="spa")


def words_file(tmp_path, words, name="words.txt"):
    path = tmp_path / name
    path.write_text("".join(f"{w}\n" for w in words), encoding="utf-8")
    return path


def test_import_makes_a_ready_version_with_keys(lexicon, tmp_path):
    count = services.import_lexicon(lexicon, "words", [words_file(tmp_path, ["canción", "año", "gato"])])
    lexicon.refresh_from_db()
    assert (count, lexicon.entry_count, lexicon.status, lexicon.version) == (3, 3, "ready", 1)
    assert set(Entry.objects.filter(lexicon=lexicon).values_list("key", flat=True)) == {"CANCION", "AÑO", "GATO"}


def test_forms_are_stored_nfc(lexicon, tmp_path):
    services.import_lexicon(lexicon, "words", [words_file(tmp_path, ["cancio\u0301n"])])
    assert Entry.objects.get(lexicon=lexicon).form == "canción"


def test_hyphenated_words_abbreviations_and_numbers_are_skipped(lexicon, tmp_path):
    services.import_lexicon(lexicon, "words", [words_file(tmp_path, ["gato", "bien-estar", "etc.", "42"])])
    assert list(Entry.objects.filter(lexicon=lexicon).values_list("form", flat=True)) == ["gato"]


def test_a_file_without_game_words_is_refused(lexicon, tmp_path):
    with pytest.raises(LexiconImportError, match="no words found"):
        services.import_lexicon(lexicon, "words", [words_file(tmp_path, ["# only", "# comments"])])
    lexicon.refresh_from_db()
    assert lexicon.status == "failed"
    assert "no words found" in lexicon.error_message


def test_a_new_version_replaces_the_old_entries(lexicon, tmp_path):
    services.import_lexicon(lexicon, "words", [words_file(tmp_path, ["gato"])])
    services.import_lexicon(lexicon, "words", [words_file(tmp_path, ["perro", "casa"])])
    lexicon.refresh_from_db()
    assert lexicon.version == 2
    assert set(Entry.objects.filter(lexicon=lexicon).values_list("form", flat=True)) == {"perro", "casa"}
    assert set(Entry.objects.filter(lexicon=lexicon).values_list("version", flat=True)) == {2}


def test_failed_import_leaves_the_previous_version_in_place(lexicon, tmp_path, monkeypatch):
    services.import_lexicon(lexicon, "words", [words_file(tmp_path, ["gato"])])
    monkeypatch.setattr(services, "BATCH_SIZE", 2)  # so some staged rows are written before the bad line
    monkeypatch.setattr(services, "COPY_BATCH_SIZE", 2)
    bad = tmp_path / "bad.txt"
    bad.write_text("perro\ncasa\nmesa\nsilla\nluz\tmucho\n", encoding="utf-8")
    with pytest.raises(LexiconImportError) as error:
        services.import_lexicon(lexicon, "words", [bad])
    assert error.value.line == 5
    lexicon.refresh_from_db()
    assert (lexicon.version, lexicon.status, lexicon.entry_count) == (1, "ready", 1)
    assert "line 5" in lexicon.error_message
    assert list(Entry.objects.filter(lexicon=lexicon).values_list("form", flat=True)) == ["gato"]
    assert services.word_list(lexicon).is_word("GATO")
    assert not services.word_list(lexicon).is_word("PERRO")


def test_successful_import_clears_the_previous_error(lexicon, tmp_path):
    with pytest.raises(LexiconImportError):
        services.import_lexicon(lexicon, "words", [words_file(tmp_path, ["# nothing"])])
    services.import_lexicon(lexicon, "words", [words_file(tmp_path, ["gato"])])
    lexicon.refresh_from_db()
    assert (lexicon.status, lexicon.error_message) == ("ready", "")


def test_progress_is_reported_per_batch(lexicon, tmp_path, monkeypatch):
    monkeypatch.setattr(services, "BATCH_SIZE", 10)
    monkeypatch.setattr(services, "COPY_BATCH_SIZE", 10)
    calls = []
    words = [f"palabra{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(55)]
    services.import_lexicon(
        lexicon, "words", [words_file(tmp_path, words)], on_progress=lambda f, n: calls.append((f, n))
    )
    assert [n for _, n in calls] == [10, 20, 30, 40, 50, 55]
    fractions = [f for f, _ in calls]
    assert fractions == sorted(fractions)
    assert fractions[-1] == 1.0


def test_word_list_implements_the_games_protocol(lexicon, tmp_path):
    path = tmp_path / "w.csv"
    path.write_text("form,lemma,pos,gloss,frequency\naño,año,noun,year,5.9\naño,año,noun,year,5.9\n", encoding="utf-8")
    services.import_lexicon(lexicon, "csv", [path])
    words = services.word_list(lexicon)
    assert words.language == "spa"
    assert words.normalise("año") == "AÑO"
    assert words.is_word("AÑO")
    assert not words.is_word("ANO")
    assert words.analyses("AÑO") == [
        {"form": "año", "lemma": "año", "pos": "noun", "parse": {}, "gloss": "year", "frequency": 5.9}
    ]
    assert words.analyses("ANO") == []
    assert words.keys() == {"AÑO"}
    assert words.keys() is words.keys()


def test_word_list_keys_are_cached_until_the_version_changes(lexicon, tmp_path, django_assert_num_queries):
    services.import_lexicon(lexicon, "words", [words_file(tmp_path, ["gato"])])
    lexicon.refresh_from_db()
    first = services.word_list(lexicon)
    with django_assert_num_queries(0):
        assert services.word_list(lexicon) is first
    services.import_lexicon(lexicon, "words", [words_file(tmp_path, ["perro"])])
    lexicon.refresh_from_db()
    second = services.word_list(lexicon)
    assert second is not first
    assert second.is_word("PERRO")
    assert not second.is_word("GATO")


def test_word_list_cache_is_not_fooled_by_a_reused_id(tmp_path):
    first = Lexicon.objects.create(name="A", language="eng")
    services.import_lexicon(first, "words", [words_file(tmp_path, ["cat"])])
    first.refresh_from_db()
    assert services.word_list(first).is_word("CAT")
    pk = first.pk
    first.delete()
    second = Lexicon.objects.create(pk=pk, name="B", language="spa")
    services.import_lexicon(second, "words", [words_file(tmp_path, ["gato"])])
    second.refresh_from_db()
    words = services.word_list(second)
    assert (words.language, words.is_word("GATO"), words.is_word("CAT")) == ("spa", True, False)


def test_word_list_of_a_lexicon_without_a_version_is_refused(lexicon):
    with pytest.raises(services.LexiconNotReady):
        services.word_list(lexicon)


def test_import_job_records_progress_and_completion(lexicon, tmp_path, monkeypatch):
    monkeypatch.setattr(services, "BATCH_SIZE", 10)
    monkeypatch.setattr(services, "COPY_BATCH_SIZE", 10)
    path = words_file(tmp_path, [f"gato{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(30)])
    job = ImportJob.objects.create(lexicon=lexicon, format="words", files=[str(path)])
    seen = []
    original = services.import_lexicon

    def spy(*args, on_progress, **kwargs):
        def record(fraction, entries):
            on_progress(fraction, entries)
            job.refresh_from_db()
            seen.append((job.status, job.percent, job.entries_done))

        return original(*args, on_progress=record, **kwargs)

    monkeypatch.setattr(services, "import_lexicon", spy)
    services.run_import_job(job.pk)
    job.refresh_from_db()
    assert (job.status, job.percent, job.entries_done) == ("done", 100, 30)
    assert seen[0] == ("running", seen[0][1], 10)
    assert all(status == "running" and percent < 100 for status, percent, _ in seen)
    assert not path.exists()


def test_failed_import_job_keeps_the_message(lexicon, tmp_path):
    path = tmp_path / "words.txt"
    path.write_bytes("gato\nca\u00f1on\n".encode("latin-1"))
    job = ImportJob.objects.create(lexicon=lexicon, format="words", files=[str(path)])
    services.run_import_job(job.pk)
    job.refresh_from_db()
    assert job.status == "failed"
    assert "words.txt, line 2" in job.error_message
    assert job.finished is not None


def test_celery_task_runs_the_job(lexicon, tmp_path, django_capture_on_commit_callbacks):
    path = words_file(tmp_path, ["gato"])
    with django_capture_on_commit_callbacks(execute=True):
        job = services.start_import(lexicon, "words", [str(path)])
    job.refresh_from_db()
    assert job.status == "done"
    assert services.word_list(Lexicon.objects.get(pk=lexicon.pk)).is_word("GATO")


def test_load_lexicon_command(tmp_path, capsys):
    call_command("load_lexicon", str(words_file(tmp_path, ["cat", "dog"])), format="words", language="eng", name="Pets")
    lexicon = Lexicon.objects.get(name="Pets")
    assert (lexicon.language, lexicon.entry_count) == ("eng", 2)
    assert "100%" in capsys.readouterr().err


def test_load_lexicon_command_reports_bad_input(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("cat\ndog\tlots\n", encoding="utf-8")
    with pytest.raises(CommandError, match="line 2"):
        call_command("load_lexicon", str(path), format="words", language="eng", name="Pets")


def test_bundled_greek_answers_logos(bundled_lexicons):
    greek = services.word_list(bundled_lexicons["koine-greek"])
    key = greek.normalise("λόγος")
    assert key == "ΛΟΓΟΣ"
    assert greek.is_word(key)
    (logos,) = [a for a in greek.analyses(key) if a["form"] == "λόγος"]
    assert logos["lemma"] == "λόγος"
    assert morphology.describe(logos["pos"], logos["parse"]) == "noun, nominative singular masculine"
    assert logos["gloss"].startswith("a word, speech")
    assert logos["frequency"] > 50


def test_bundled_greek_elision_and_shared_keys(bundled_lexicons):
    greek = services.word_list(bundled_lexicons["koine-greek"])
    assert {a["lemma"] for a in greek.analyses("ΔΙ")} == {"διά"}
    assert {"ἡ", "ἤ", "ᾗ"} <= {a["form"] for a in greek.analyses("Η")}
    assert not greek.is_word(greek.normalise("Ἰησοῦς"))  # proper noun


def test_bundled_spanish_and_english(bundled_lexicons):
    spanish = services.word_list(bundled_lexicons["spanish"])
    assert spanish.is_word(spanish.normalise("canción"))
    assert spanish.is_word("AÑO")
    assert spanish.size > 500_000
    english = services.word_list(bundled_lexicons["english"])
    assert english.is_word("QUIXOTIC")
    assert not english.is_word("QWXZ")


def test_loading_bundled_lexicons_again_changes_nothing(bundled_lexicons):
    versions = {slug: lexicon.version for slug, lexicon in bundled_lexicons.items()}
    again = services.load_bundled_lexicons()
    assert {slug: lexicon.version for slug, lexicon in again.items()} == versions


def test_search_finds_by_key_form_and_lemma(bundled_lexicons):
    greek = bundled_lexicons["koine-greek"]
    by_key = selectors.search(greek, "ΛΟΓΟΣ")
    assert "noun, nominative singular masculine" in {r["description"] for r in by_key}
    by_lemma = selectors.search(greek, "λόγος")
    assert {"λόγου", "λόγον"} <= {r["form"] for r in by_lemma}


# --- hostile uploads ---------------------------------------------------------------------------------------------


def run_upload(tmp_path, teacher, files, fmt="words", name="Mis palabras"):
    lexicon = Lexicon.objects.create(name=name, language="spa", owner=teacher)
    job = ImportJob.objects.create(lexicon=lexicon, format=fmt, files=[str(p) for p in files], created_by=teacher)
    services.run_import_job(job.pk)
    job.refresh_from_db()
    return job


def test_long_lemma_names_the_file_and_line(lexicon, tmp_path):
    path = tmp_path / "l.csv"
    path.write_text("gato,gato\nperro," + "p" * 150 + "\n", encoding="utf-8")
    with pytest.raises(LexiconImportError, match=r"lemma .* 150 characters long, over the limit of 100") as error:
        services.import_lexicon(lexicon, "csv", [path])
    assert (error.value.file, error.value.line) == ("l.csv", 2)


def test_a_key_longer_than_its_form_names_the_file_and_line(lexicon, tmp_path):
    """ß is one letter of the form and two of its key."""
    path = words_file(tmp_path, ["gato", "ß" * 60])
    with pytest.raises(LexiconImportError, match=r"key .* 120 characters long") as error:
        services.import_lexicon(lexicon, "words", [path])
    assert (error.value.file, error.value.line) == ("words.txt", 2)


def test_entries_per_upload_are_bounded_from_the_settings(tmp_path, teacher, settings):
    settings.LEXICON_MAX_ENTRIES = 3
    job = run_upload(tmp_path, teacher, [words_file(tmp_path, ["uno", "dos", "tres", "cuatro", "cinco"])])
    assert job.status == "failed"
    assert "more than 3 entries, the limit of one lexicon" in job.error_message
    assert not Entry.objects.filter(lexicon__owner=teacher).exists()


def test_entries_per_teacher_count_their_other_lexicons(tmp_path, teacher, other_teacher, settings):
    settings.LEXICON_MAX_ENTRIES_PER_TEACHER = 6
    Lexicon.objects.create(name="Old", language="spa", owner=teacher, entry_count=4)
    Lexicon.objects.create(name="Not mine", language="spa", owner=other_teacher, entry_count=100)
    job = run_upload(tmp_path, teacher, [words_file(tmp_path, ["uno", "dos", "tres"])])
    assert job.status == "failed"
    assert "4 of your limit of 6 entries are used" in job.error_message
    job = run_upload(tmp_path, teacher, [words_file(tmp_path, ["uno", "dos"])], name="Small")
    assert job.status == "done"


def test_a_gzip_bomb_upload_fails_early_with_the_limit(tmp_path, teacher, settings):
    settings.LEXICON_MAX_TEXT_BYTES = 1_000_000
    path = tmp_path / "bomb.txt.gz"
    path.write_bytes(gzip.compress(b"gato\n" * 1_000_000))
    job = run_upload(tmp_path, teacher, [path])
    assert job.status == "failed"
    assert "bomb.txt.gz" in job.error_message
    assert "more than 1 MB of text once decompressed" in job.error_message
    assert job.entries_done < 210_000


def test_hunspell_expansion_upload_is_refused_per_stem(tmp_path, teacher, settings):
    settings.LEXICON_MAX_FORMS_PER_STEM = 500
    rules = "".join(f"SFX A 0 a{i:03d}/B .\n" for i in range(40))
    rules += "SFX B Y 40\n" + "".join(f"SFX B 0 b{i:03d} .\n" for i in range(40))
    aff, dic = tmp_path / "x.aff", tmp_path / "x.dic"
    aff.write_text(f"SET UTF-8\nSFX A Y 40\n{rules}", encoding="utf-8")
    dic.write_text("1\ngato/A\n", encoding="utf-8")
    job = run_upload(tmp_path, teacher, [dic, aff], fmt="hunspell")
    assert job.status == "failed"
    assert "x.dic, line 2: the stem 'gato' expands to more than 500 forms" in job.error_message


@needs_postgresql("the query plans and the index list are PostgreSQL's")
@pytest.mark.django_db
def test_an_import_writes_two_indexes_and_a_lexicons_rows_are_found_by_the_key_index(lexicon, tmp_path):
    """Every entry an import writes goes into each index of the table: the primary key and the key index, not a
    third of the lexicon's own (migration 0005). A lexicon's rows (its deletion, a version's clean-up) are found
    through the key index, which begins with the lexicon."""
    services.import_lexicon(lexicon, "words", [words_file(tmp_path, ["gato", "perro"])])
    table = Entry._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = %s ORDER BY indexname", [table])
        assert [name for (name,) in cursor.fetchall()] == ["lexicons_entry_key", f"{table}_pkey"]
        cursor.execute("SET LOCAL enable_seqscan = off")  # two rows: PostgreSQL would scan them all otherwise
        cursor.execute(f"EXPLAIN DELETE FROM {table} WHERE lexicon_id = %s", [lexicon.pk])  # noqa: S608
        plan = "\n".join(line for (line,) in cursor.fetchall())
    assert "lexicons_entry_key" in plan
