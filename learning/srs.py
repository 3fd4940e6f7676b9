"""The review schedule: Leitner boxes.

Five boxes; a word in box *n* is reviewed again ``INTERVALS[n]`` days after it was last reviewed (1, 2, 4, 8,
16 days). A right answer moves the word up one box (box 5 stays in box 5, every 16 days); a wrong answer sends it
back to box 1, due tomorrow. A new word starts in box 1, due today.

Games feed the schedule as well as the review page, with two rules so that one busy lesson does not rush a
word through the boxes:

- a word the student played, parsed, was quizzed on or taught joins the list (box 1, due today); words only
  seen on the table do not (the list holds what the student worked with, not everything on the board);
- a wrong answer in a game sends the word back to box 1; a right answer in a game counts as a review only when
  the word is due, exactly as if the student had reviewed it on the review page.
"""

from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta

from django.db.models import QuerySet
from django.utils import timezone

from lexicons import morphology

from .models import Encounter, ReviewItem, Student

INTERVALS: dict[int, int] = {1: 1, 2: 2, 3: 4, 4: 8, 5: 16}
FIRST_BOX = 1
LAST_BOX = max(INTERVALS)


def next_box(box: int, right: bool) -> int:
    """The box a word in ``box`` moves to after a right or wrong answer."""
    if box not in INTERVALS:
        raise ValueError(f"there is no box {box}")
    return min(box + 1, LAST_BOX) if right else FIRST_BOX


def due_after(box: int, reviewed: date) -> date:
    """When a word put in ``box`` on ``reviewed`` is next due."""
    return reviewed + timedelta(days=INTERVALS[box])


def review(box: int, right: bool, today: date) -> tuple[int, date]:
    """A review today: the word's new box and due date."""
    box = next_box(box, right)
    return box, due_after(box, today)


def is_due(due: date, today: date) -> bool:
    return due <= today


# -- the review list -----------------------------------------------------------------------------------------------
def add_from_encounters(encounters: Sequence[Encounter], language: str, when: datetime) -> None:
    """Apply one move's encounters to the students' review lists (the rules in the module docstring). A word's
    answers within one move count once: wrong if any was wrong. A word new to the list this move is not reviewed by
    the same move (meeting a word is not yet reviewing it)."""
    today = timezone.localdate(when)
    first: dict[tuple[int, str, str], Encounter] = {}
    outcome: dict[tuple[int, str, str], bool] = {}
    for enc in encounters:
        if enc.kind == Encounter.Kind.SEEN:
            continue
        word = (enc.student_id, enc.key, enc.lemma)
        first.setdefault(word, enc)
        if enc.correct is not None:
            outcome[word] = outcome.get(word, True) and enc.correct
    if not first:
        return
    existing = {
        (item.student_id, item.key, item.lemma): item
        for item in ReviewItem.objects.filter(student_id__in={w[0] for w in first}, key__in={w[1] for w in first})
    }
    new, changed = [], []
    for word, enc in first.items():
        item = existing.get(word)
        if item is None:
            new.append(
                ReviewItem(
                    student_id=enc.student_id,
                    lexicon_id=enc.lexicon_id,
                    language=language,
                    key=enc.key,
                    form=enc.form,
                    lemma=enc.lemma,
                    pos=enc.pos,
                    parse=enc.expected,
                    gloss=enc.gloss,
                    box=FIRST_BOX,
                    due=today,
                )
            )
        elif word in outcome and (not outcome[word] or is_due(item.due, today)):
            _reviewed(item, outcome[word], when)
            changed.append(item)
    ReviewItem.objects.bulk_create(new, ignore_conflicts=True)
    ReviewItem.objects.bulk_update(changed, ["box", "due", "reviews", "right", "last_reviewed"])


def _reviewed(item: ReviewItem, right: bool, when: datetime) -> None:
    item.box, item.due = review(item.box, right, timezone.localdate(when))
    item.reviews += 1
    item.right += int(right)
    item.last_reviewed = when


def due_items(student: Student, today: date | None = None) -> QuerySet[ReviewItem]:
    """The student's words due for review, the most urgent (oldest due, lowest box) first."""
    today = today or timezone.localdate()
    return student.review_items.filter(due__lte=today).order_by("due", "box", "form", "pk")


def quiz_fields(item: ReviewItem) -> tuple[str, ...]:
    """The parse fields a review of ``item`` asks for; empty when it is reviewed by meaning (not Greek, or a word
    with nothing to parse, such as a conjunction)."""
    if item.language != "grc" or not item.pos:
        return ()
    try:
        return morphology.fields_for(item.pos, item.parse)
    except ValueError:
        return ()


def describe(item: ReviewItem) -> str:
    """The word's parse in words ("noun, accusative singular masculine"); empty when it has none."""
    if item.language != "grc" or not item.pos:
        return ""
    try:
        return morphology.describe(item.pos, item.parse)
    except (ValueError, KeyError):
        return ""


def answer_parse(item: ReviewItem, given: Mapping[str, str], when: datetime | None = None) -> list[str]:
    """Grade a parse of ``item`` and reschedule it; returns the wrong fields (empty: right)."""
    wrong = morphology.compare(given, {"pos": item.pos, "parse": item.parse})
    answer_recall(item, not wrong, when)
    return wrong


def answer_recall(item: ReviewItem, right: bool, when: datetime | None = None) -> None:
    """The student's own verdict on whether they knew the word; reschedules it."""
    _reviewed(item, right, when or timezone.now())
    item.save(update_fields=["box", "due", "reviews", "right", "last_reviewed"])
