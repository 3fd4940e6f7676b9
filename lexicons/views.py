"""Lexicon pages: list, browse (search), teacher upload with a live progress page, delete.

Any logged-in user may list and browse; only teachers upload; only a lexicon's owner replaces or deletes it."""

import uuid
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.text import get_valid_filename
from django.views.decorators.http import require_GET, require_POST

from learning.decorators import teacher_required
from lexicons import selectors, services
from lexicons.forms import UploadForm
from lexicons.models import ImportJob, Lexicon

UPLOAD_DIR = "lexicon-uploads"


@login_required
@require_GET
def lexicon_list(request: HttpRequest) -> HttpResponse:
    return render(request, "lexicons/list.html", {"lexicons": selectors.lexicon_list()})


@login_required
@require_GET
def browse(request: HttpRequest, pk: int) -> HttpResponse:
    lexicon = selectors.lexicon_or_404(pk)
    query = request.GET.get("q", "")[:100]
    results = selectors.search(lexicon, query) if query.strip() else []
    context = {
        "lexicon": lexicon,
        "query": query,
        "results": results,
        "searched": bool(query.strip()),
        "is_owner": _owns(request.user, lexicon),
        "last_job": selectors.last_import(lexicon),
    }
    return render(request, "lexicons/browse.html", context)


@teacher_required
def upload(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    replacing = None
    if pk is not None:
        replacing = selectors.lexicon_or_404(pk)
        if not _owns(request.user, replacing):
            raise PermissionDenied("Only the teacher who uploaded this lexicon can replace it.")
    form = UploadForm(request.POST or None, request.FILES or None, replacing=replacing)
    if request.method == "POST" and form.is_valid():
        if replacing is not None:
            services.sweep_imports()  # a job whose worker died no longer blocks the replacement
        if replacing is not None and selectors.import_running(replacing):
            form.add_error(None, "An import into this lexicon is still running; wait for it to finish.")
        else:
            job = _start(request, form, replacing)
            return redirect("lexicons:progress", pk=job.pk)
    return render(request, "lexicons/upload.html", {"form": form, "replacing": replacing})


def _start(request: HttpRequest, form: UploadForm, replacing: Lexicon | None) -> ImportJob:
    folder = Path(settings.MEDIA_ROOT) / UPLOAD_DIR / uuid.uuid4().hex
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, upload in enumerate(form.cleaned_data["files"]):
        path = folder / f"{index:02d}-{get_valid_filename(Path(upload.name).name) or 'upload'}"
        with open(path, "wb") as out:
            for chunk in upload.chunks():
                out.write(chunk)
        paths.append(str(path))
    data = form.cleaned_data
    return services.start_upload(
        replacing, data.get("name", ""), data.get("language", ""), data["format"], paths, request.user
    )


@teacher_required
@require_GET
def progress(request: HttpRequest, pk: int) -> HttpResponse:
    job = _own_job(request, pk)
    return render(request, "lexicons/progress.html", {"job": job, "status": selectors.job_status(job)})


@teacher_required
@require_GET
def progress_status(request: HttpRequest, pk: int) -> JsonResponse:
    job = _own_job(request, pk)
    services.sweep_imports(job)
    job.refresh_from_db()
    return JsonResponse(selectors.job_status(job))


@teacher_required
@require_POST
def delete(request: HttpRequest, pk: int) -> HttpResponse:
    lexicon = selectors.lexicon_or_404(pk)
    if not _owns(request.user, lexicon):
        raise PermissionDenied("Only the teacher who uploaded this lexicon can delete it.")
    try:
        services.delete_lexicon(lexicon)
    except services.LexiconInUse as exc:
        messages.error(request, str(exc))
        return redirect("lexicons:browse", pk=lexicon.pk)
    messages.success(request, f"Deleted {lexicon.name}.")
    return redirect("lexicons:list")


def _owns(user, lexicon: Lexicon) -> bool:
    return lexicon.owner_id is not None and lexicon.owner_id == user.pk


def _own_job(request: HttpRequest, pk: int) -> ImportJob:
    job = selectors.import_job_or_404(pk)
    if job.created_by_id != request.user.pk:
        raise PermissionDenied("This import belongs to another teacher.")
    return job
