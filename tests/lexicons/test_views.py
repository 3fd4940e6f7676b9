"""Lexicon pages: access control, uploads through the test client to completion, progress, browsing, deletion."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from lexicons import services
from lexicons.models import ImportJob, Lexicon

pytestmark = pytest.mark.django_db

AFF = "SET UTF-8\nSFX S Y 1\nSFX S 0 s [aeiou]\n"


@pytest.fixture(autouse=True)
def uploads_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def teacher_client(client, teacher):
    client.force_login(teacher)
    return client


def upload(client, files, capture, **fields):
    data = {"name": "Mis palabras", "language": "spa", "format": "words", **fields, "files": files}
    with capture(execute=True):
        return client.post(reverse("lexicons:upload"), data)


def test_anonymous_visitors_are_sent_to_log_in(client):
    for url in (reverse("lexicons:list"), reverse("lexicons:upload")):
        response = client.get(url)
        assert response.status_code == 302
        assert reverse("login") in response["Location"]


def test_students_may_browse_but_not_upload(client, student):
    client.force_login(student.user)
    assert client.get(reverse("lexicons:list")).status_code == 200
    response = client.get(reverse("lexicons:upload"))
    assert response.status_code == 403
    assert b"for teachers" in response.content


def test_teacher_uploads_hunspell_pair_to_completion(teacher_client, teacher, django_capture_on_commit_callbacks):
    files = [
        SimpleUploadedFile("es.dic", b"2\ncasa/S\nreloj\n"),
        SimpleUploadedFile("es.aff", AFF.encode()),
    ]
    response = upload(teacher_client, files, django_capture_on_commit_callbacks, format="hunspell")
    job = ImportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("lexicons:progress", args=[job.pk])
    assert job.status == "done"
    lexicon = job.lexicon
    assert (lexicon.owner, lexicon.language, lexicon.entry_count) == (teacher, "spa", 3)
    assert services.word_list(lexicon).is_word("CASAS")
    status = teacher_client.get(reverse("lexicons:progress-status", args=[job.pk])).json()
    assert status == {"status": "done", "percent": 100, "entries": 3, "error": "", "finished": True}


def test_teacher_uploads_csv_and_browses_it(teacher_client, django_capture_on_commit_callbacks):
    csv_file = SimpleUploadedFile("words.csv", "form,lemma,gloss\ncanción,canción,song\n".encode())
    upload(teacher_client, [csv_file], django_capture_on_commit_callbacks, format="csv")
    lexicon = Lexicon.objects.get(owner__isnull=False)
    page = teacher_client.get(reverse("lexicons:browse", args=[lexicon.pk]), {"q": "CANCION"})
    assert "canción" in page.content.decode()
    assert "song" in page.content.decode()


def test_progress_page_shows_the_bar_and_the_polling_script(teacher_client, django_capture_on_commit_callbacks):
    upload(teacher_client, [SimpleUploadedFile("w.txt", b"gato\n")], django_capture_on_commit_callbacks)
    job = ImportJob.objects.get()
    page = teacher_client.get(reverse("lexicons:progress", args=[job.pk])).content.decode()
    assert "<progress" in page
    assert "lexicons/progress.js" in page
    assert reverse("lexicons:progress-status", args=[job.pk]) in page


def test_a_queued_import_says_it_waits_for_a_worker(teacher_client, teacher):
    """Queued: not yet taken by a worker, or waiting for other imports and reports to end (config/yielding.py)."""
    lexicon = Lexicon.objects.create(name="Mis palabras", language="spa", owner=teacher)
    job = ImportJob.objects.create(lexicon=lexicon, format="words", files=[], created_by=teacher)
    page = teacher_client.get(reverse("lexicons:progress", args=[job.pk])).content.decode()
    assert "Waiting for a worker…" in page
    assert "so far" not in page


def test_failed_upload_shows_the_line_numbered_error(teacher_client, django_capture_on_commit_callbacks):
    bad = SimpleUploadedFile("w.txt", "gato\nca\u00f1on\n".encode("latin-1"))
    upload(teacher_client, [bad], django_capture_on_commit_callbacks)
    job = ImportJob.objects.get()
    status = teacher_client.get(reverse("lexicons:progress-status", args=[job.pk])).json()
    assert status["status"] == "failed"
    assert "line 2" in status["error"]
    assert "Latin-1" in status["error"]
    page = teacher_client.get(reverse("lexicons:progress", args=[job.pk])).content.decode()
    assert "line 2" in page


def test_upload_validation_messages(teacher_client, settings, django_capture_on_commit_callbacks):
    response = upload(
        teacher_client,
        [SimpleUploadedFile("es.dic", b"1\ncasa\n")],
        django_capture_on_commit_callbacks,
        format="hunspell",
    )
    assert response.status_code == 200
    assert "one .dic file and one .aff file" in response.content.decode()
    response = upload(
        teacher_client, [SimpleUploadedFile("w.txt", b"gato\n")], django_capture_on_commit_callbacks, language="spanish"
    )
    assert "three-letter" in response.content.decode()
    settings.LEXICON_UPLOAD_MAX_BYTES = 10
    response = upload(
        teacher_client, [SimpleUploadedFile("w.txt", b"gato\nperro\nmesa\n")], django_capture_on_commit_callbacks
    )
    assert "the limit is" in response.content.decode()
    assert not Lexicon.objects.filter(owner__isnull=False).exists()


def test_only_the_owner_sees_a_job_or_replaces_or_deletes(
    client, teacher_client, other_teacher, django_capture_on_commit_callbacks
):
    upload(teacher_client, [SimpleUploadedFile("w.txt", b"gato\n")], django_capture_on_commit_callbacks)
    job = ImportJob.objects.get()
    lexicon = job.lexicon
    client.force_login(other_teacher)
    assert client.get(reverse("lexicons:progress-status", args=[job.pk])).status_code == 403
    assert client.get(reverse("lexicons:replace", args=[lexicon.pk])).status_code == 403
    assert client.post(reverse("lexicons:delete", args=[lexicon.pk])).status_code == 403
    assert Lexicon.objects.filter(pk=lexicon.pk).exists()


def test_owner_replaces_with_a_new_version(teacher_client, django_capture_on_commit_callbacks):
    upload(teacher_client, [SimpleUploadedFile("w.txt", b"gato\n")], django_capture_on_commit_callbacks)
    lexicon = Lexicon.objects.get(owner__isnull=False)
    with django_capture_on_commit_callbacks(execute=True):
        teacher_client.post(
            reverse("lexicons:replace", args=[lexicon.pk]),
            {"format": "words", "files": [SimpleUploadedFile("w.txt", b"perro\n")]},
        )
    lexicon.refresh_from_db()
    assert lexicon.version == 2
    assert services.word_list(lexicon).is_word("PERRO")


def test_owner_deletes(teacher_client, django_capture_on_commit_callbacks):
    upload(teacher_client, [SimpleUploadedFile("w.txt", b"gato\n")], django_capture_on_commit_callbacks)
    lexicon = Lexicon.objects.get(owner__isnull=False)
    response = teacher_client.post(reverse("lexicons:delete", args=[lexicon.pk]))
    assert response.status_code == 302
    assert not Lexicon.objects.filter(owner__isnull=False).exists()


def test_browse_bundled_greek_spells_out_the_parse(client, student, bundled_lexicons):
    client.force_login(student.user)
    greek = bundled_lexicons["koine-greek"]
    assert greek.name in client.get(reverse("lexicons:list")).content.decode()
    page = client.get(reverse("lexicons:browse", args=[greek.pk]), {"q": "ΛΟΓΟΣ"}).content.decode()
    assert "λόγος" in page
    assert "noun, nominative singular masculine" in page
    assert "a word, speech" in page
    assert "Delete" not in page
    missing = client.get(reverse("lexicons:browse", args=[greek.pk]), {"q": "ΞΞΞ"}).content.decode()
    assert "Not in this lexicon" in missing


def test_deleting_a_lexicon_a_lesson_used_is_refused_with_a_reason(
    teacher_client, teacher, classroom, django_capture_on_commit_callbacks
):
    from games.models import Lesson

    upload(teacher_client, [SimpleUploadedFile("w.txt", b"gato\n")], django_capture_on_commit_callbacks)
    lexicon = Lexicon.objects.get(owner__isnull=False)
    Lesson.objects.create(classroom=classroom, game="palabra", lexicon=lexicon, started_by=teacher)
    response = teacher_client.post(reverse("lexicons:delete", args=[lexicon.pk]), follow=True)
    assert response.status_code == 200
    assert "lessons have been played with it" in response.content.decode()
    assert Lexicon.objects.filter(pk=lexicon.pk).exists()
