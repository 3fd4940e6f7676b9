"""A student's own pages for learning: the review list, the review quiz and the drills built from their mistakes.
Thin: the schedule is ``learning.srs``, the drills ``learning.drills``."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from lexicons import morphology

from . import drills, selectors, srs
from .decorators import AuthenticatedRequest
from .forms import ReviewForm
from .models import ReviewItem, Student


def _my_student(request: AuthenticatedRequest) -> Student:
    student = selectors.student_of(request.user)
    if student is None:
        raise PermissionDenied("The review list is for students.")
    return student


def _percent(value: float) -> int:
    return round(100 * value)


@login_required
def review_list(request: AuthenticatedRequest) -> HttpResponse:
    student = _my_student(request)
    today = timezone.localdate()
    now = timezone.now()
    # Words met only in practice games against robots are marked as such.
    met = student.encounters.values_list("key", "practice").distinct()
    in_lessons = {key for key, practice in met if not practice}
    practised = {key for key, practice in met if practice} - in_lessons
    items: list[dict[str, Any]] = [
        {
            "item": item,
            "parse": srs.describe(item),
            "due_now": srs.is_due(item.due, today),
            "recall": _percent(srs.retrievability(item, now)) if item.stability else None,
            "state": srs.state_label(item),
            "practice": item.key in practised,
        }
        for item in student.review_items.order_by("due", "stability", "form", "pk")
    ]
    context = {
        "student": student,
        "items": items,
        "due_count": sum(i["due_now"] for i in items),
        "known": sum(1 for i in items if i["recall"] is not None and i["recall"] >= _percent(srs.KNOWN)),
        "known_percent": _percent(srs.KNOWN),
    }
    return render(request, "learning/reports/review_list.html", context)


def _form(item: ReviewItem, data: Any = None) -> ReviewForm:
    kind = srs.quiz_kind(item)
    meanings = srs.meaning_choices(item) if kind in (srs.PARSE, srs.CHOOSE) else []
    return ReviewForm(kind, srs.quiz_fields(item), meanings, data)


@login_required
def review_quiz(request: AuthenticatedRequest) -> HttpResponse:
    """One due word at a time: Greek words are parsed with selects and their meaning chosen; other words alternate
    between choosing the meaning and typing the word for it; words with no meaning are self-graded."""
    student = _my_student(request)
    if request.method == "POST":
        item_id = request.POST.get("item", "")
        item = selectors.review_item(student, int(item_id)) if item_id.isdigit() else None
        if item is None:
            messages.error(request, "That word is not on your review list.")
            return redirect("learning:review_quiz")
        if not srs.is_due(item.due, timezone.localdate()):
            messages.error(request, f"“{item.form}” is not due for review until {item.due:%d %B}.")
            return redirect("learning:review_quiz")
        form = _form(item, request.POST)
        if form.is_valid():
            _tell(request, item, form.kind, form.cleaned_data, srs.grade(item, form.kind, form.cleaned_data))
            return redirect("learning:review_quiz")
    else:
        item = srs.next_item(student)
        if item is None:
            return render(request, "learning/reports/review_quiz.html", {"student": student, "item": None})
        form = _form(item)
    context = {
        "student": student,
        "item": item,
        "form": form,
        "kind": form.kind,
        "due_count": srs.due_items(student).count(),
    }
    return render(request, "learning/reports/review_quiz.html", context)


def _next_time(item: ReviewItem) -> str:
    days = (item.due - timezone.localdate()).days
    return "tomorrow" if days <= 1 else f"in {days} days"


def _tell(request: AuthenticatedRequest, item: ReviewItem, kind: str, answer: dict, result: dict) -> None:
    """Say what was right (and what was not) about the answer just graded."""
    meaning = f"{item.form}: {item.lemma + ', ' if item.lemma else ''}{item.gloss or 'no meaning in the lexicon'}"
    parse = srs.describe(item)
    told: list[str] = []
    if result["wrong_fields"]:
        label = morphology.label
        told.append(
            ", ".join(
                f"{name}: {label(name, item.parse.get(name, ''))}, not {label(name, answer[name])}"
                for name in result["wrong_fields"]
            )
        )
    if result["meaning_right"] is False:
        told.append(f"it means “{item.gloss}”, not “{answer.get('meaning', '')}”")
    if kind == srs.TYPE and not result["right"]:
        told.append(
            f"the word is {item.form}{f' ({item.lemma})' if item.lemma else ''}, not “{answer.get('word', '')}”"
        )
    parts = [p for p in (parse, f"({meaning})") if p]
    if result["right"]:
        messages.success(request, f"Right! {'. '.join(parts)}. Next review {_next_time(item)}.")
    elif kind == srs.RECALL:
        messages.info(request, f"{'. '.join(parts)}. It comes back tomorrow.")
    else:
        messages.error(request, f"Not quite — {'; '.join(told)}. {'. '.join(parts)}. It comes back tomorrow.")


@login_required
def drill(request: AuthenticatedRequest) -> HttpResponse:
    """Today's drill from the student's own mistakes; the answers are graded on the same page."""
    student = _my_student(request)
    built = drills.build(student)
    results = None
    if request.method == "POST" and built is not None:
        if request.POST.get("signature") != drills.signature(built):
            messages.info(request, "Your drill changed since you opened it (a game just added to it): here it is now.")
        else:
            results = drills.grade(student, built, {k: str(v) for k, v in request.POST.items()})
            right = sum(r["right"] for r in results)
            messages.success(request, f"{right} of {len(results)} right. Your answers go into your review list.")
    questions = [
        {
            "n": i,
            "q": q,
            "selects": [
                {"name": f"q{i}-{name}", "label": name.capitalize(), "values": list(morphology.VALUES[name].items())}
                for name in q.fields
            ],
            "result": results[i] if results else None,
            "told": _drill_told(q, results[i]) if results else "",
        }
        for i, q in enumerate(built.questions if built else [])
    ]
    context = {
        "student": student,
        "drill": built,
        "questions": questions,
        "signature": drills.signature(built) if built else "",
        "graded": results is not None,
    }
    return render(request, "learning/reports/drill.html", context)


def _drill_told(question: drills.Question, result: dict) -> str:
    meaning = f"{question.lemma + ': ' if question.lemma else ''}{question.gloss}".strip(": ")
    if question.fields:
        parse = morphology.describe(question.pos, question.parse)
        if result["right"]:
            return f"Right: {parse}."
        label = morphology.label
        wrong = ", ".join(
            f"{name}: {label(name, question.parse.get(name, ''))}, not {label(name, result['given'].get(name, ''))}"
            for name in result["wrong_fields"]
        )
        return f"{wrong}. It is {parse} ({meaning})."
    if result["right"]:
        return f"Right: {meaning}."
    return f"It means “{question.gloss}”, not “{result['given'].get('meaning', '')}”."
