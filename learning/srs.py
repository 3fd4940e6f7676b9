"""The review schedule: a memory model (FSRS, through the ``fsrs`` package) per student and word.

Each word on a student's review list holds an FSRS card: its **stability** (days until the predicted chance of
recalling it falls to 90%), its **difficulty** (1–10), its **state** (new, learning, review, relearning) and the day
it is next **due**. Every answer is a rating (again, hard, good, easy); the model turns a rating into the card's new
stability, difficulty and due day. The model also predicts, for any day, the chance the student still recalls the
word (its *retrievability*): the reports call a word *known* when that chance is at least :data:`KNOWN` today.

The schedule counts in days (no learning steps of minutes): a wrong answer brings the word back the next day (one
relearning step of a day), a right one pushes it out by the card's stability (about two days for a new word
answered right, growing with each right answer at the right time). Intervals are not fuzzed, so a schedule is
reproducible.

Games feed the schedule as well as the review page, with two rules so that one busy lesson does not rush a word:

- a word the student played, parsed, was quizzed on or taught joins the list (new, due today); words only seen on
  the table do not (the list holds what the student worked with, not everything on the board);
- a wrong answer in a game is an *again* rating; a right answer in a game is a *good* rating only when the word is
  due, exactly as if the student had reviewed it on the review page (meeting a word is not yet reviewing it).
"""

import random
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from fsrs import Card, Rating, Scheduler, State

from lexicons import morphology
from lexicons.models import Entry
from lexicons.normalise import normalise

from .models import Encounter, ReviewItem, Student

KNOWN = 0.9  # a word is known when its predicted recall today is at least this
FADING = 0.7  # a word met and reviewed, predicted recall below KNOWN down to this: fading; below it: forgotten
SCHEDULER = Scheduler(
    desired_retention=0.9, learning_steps=(), relearning_steps=(timedelta(days=1),), enable_fuzzing=False
)
SCHEDULE_FIELDS = ("state", "stability", "difficulty", "due", "reviews", "right", "last_reviewed")
RATINGS: dict[str, Rating] = {"again": Rating.Again, "hard": Rating.Hard, "good": Rating.Good, "easy": Rating.Easy}
STATES = {
    0: "new",
    State.Learning.value: "learning",
    State.Review.value: "review",
    State.Relearning.value: "relearning",
}


# -- the model ------------------------------------------------------------------------------------------------------
def _utc(when: datetime) -> datetime:
    return when.astimezone(UTC)


def card_of(item: ReviewItem) -> Card:
    """The item's FSRS card (a new card when the word was never reviewed)."""
    if item.state == ReviewItem.NEW or item.stability is None:
        return Card(card_id=item.pk or 1, state=State.Learning, step=0, due=_utc(timezone.now()))
    due = timezone.make_aware(datetime.combine(item.due, time()))
    return Card(
        card_id=item.pk or 1,
        state=State(item.state),
        step=None if item.state == State.Review else 0,
        stability=item.stability,
        difficulty=item.difficulty,
        due=_utc(due),
        last_review=_utc(item.last_reviewed) if item.last_reviewed else None,
    )


def review(item: ReviewItem, rating: Rating, when: datetime) -> None:
    """Rate ``item`` at ``when``: its card's new stability, difficulty, state and due day (not saved)."""
    card, _log = SCHEDULER.review_card(card_of(item), rating, review_datetime=_utc(when))
    item.state = card.state.value
    item.stability, item.difficulty = card.stability, card.difficulty
    item.due = timezone.localdate(card.due)
    item.reviews += 1
    item.right += int(rating != Rating.Again)
    item.last_reviewed = when


def recall(stability: float | None, last_reviewed: datetime | None, when: datetime) -> float:
    """The predicted chance of recalling a word with this stability, last reviewed then, at ``when`` (0 when the
    word was never reviewed)."""
    if stability is None or last_reviewed is None:
        return 0.0
    card = Card(card_id=1, state=State.Review, step=None, stability=stability, difficulty=5.0, due=_utc(when))
    card.last_review = _utc(last_reviewed)
    return float(SCHEDULER.get_card_retrievability(card, _utc(when)))


def retrievability(item: ReviewItem, when: datetime | None = None) -> float:
    return recall(item.stability, item.last_reviewed, when or timezone.now())


def is_due(due: date, today: date) -> bool:
    return due <= today


def state_label(item: ReviewItem) -> str:
    return STATES.get(item.state, "new")


# -- the review list ------------------------------------------------------------------------------------------------
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
                    due=today,
                )
            )
        elif word in outcome and (not outcome[word] or is_due(item.due, today)):
            review(item, Rating.Good if outcome[word] else Rating.Again, when)
            changed.append(item)
    ReviewItem.objects.bulk_create(new, ignore_conflicts=True)
    ReviewItem.objects.bulk_update(changed, list(SCHEDULE_FIELDS))


def due_items(student: Student, today: date | None = None) -> QuerySet[ReviewItem]:
    """The student's words due for review, the most urgent first: the longest overdue, then the least stable (the
    lowest predicted recall), new words last among those due the same day."""
    today = today or timezone.localdate()
    return student.review_items.filter(due__lte=today).order_by("due", "stability", "form", "pk")


def next_item(student: Student, today: date | None = None) -> ReviewItem | None:
    """The next word to review (one indexed query, whatever the length of the list)."""
    return due_items(student, today).first()


# -- the quiz -------------------------------------------------------------------------------------------------------
PARSE, CHOOSE, TYPE, RECALL = "parse", "choose", "type", "recall"
CHOICES = 4  # meanings offered in a choice, the right one included


def quiz_fields(item: ReviewItem) -> tuple[str, ...]:
    """The parse fields a review of ``item`` asks for; empty when it is reviewed by meaning only (not Greek, or a
    word with nothing to parse, such as a conjunction)."""
    if item.language != "grc" or not item.pos:
        return ()
    try:
        return morphology.fields_for(item.pos, item.parse)
    except ValueError:
        return ()


def quiz_kind(item: ReviewItem) -> str:
    """How the word is asked: Greek words with a parse are parsed (and their meaning chosen, when it has one);
    words with a meaning alternate between choosing the meaning and typing the word for it; words without a
    meaning are self-graded."""
    if quiz_fields(item):
        return PARSE
    if not item.gloss:
        return RECALL
    return CHOOSE if item.reviews % 2 == 0 else TYPE


def meaning_choices(item: ReviewItem) -> list[str]:
    """The meanings offered for ``item``: its own and up to three others (from the student's list, else from the
    lexicon), in an order fixed for this review of this word, so a page shown again offers the same."""
    if not item.gloss:
        return []
    others: list[str] = []
    seen = {item.gloss.strip().casefold()}

    def take(glosses: Sequence[str]) -> None:
        for gloss in glosses:
            folded = gloss.strip().casefold()
            if gloss and folded not in seen:
                seen.add(folded)
                others.append(gloss)

    rng = random.Random(f"{item.pk}:{item.reviews}")
    mine = list(
        ReviewItem.objects.filter(student_id=item.student_id)
        .exclude(gloss="")
        .exclude(lemma=item.lemma or "\0")
        .order_by("-last_reviewed", "pk")
        .values_list("gloss", flat=True)[:40]
    )
    rng.shuffle(mine)
    take(mine)
    if len(others) < CHOICES - 1 and item.lexicon_id is not None:
        rows = list(
            Entry.objects.filter(lexicon_id=item.lexicon_id)
            .exclude(gloss="")
            .exclude(lemma=item.lemma or "\0")
            .order_by("-frequency", "pk")
            .values_list("gloss", flat=True)[:60]
        )
        rng.shuffle(rows)
        take(rows)
    offered = [item.gloss, *others[: CHOICES - 1]]
    rng.shuffle(offered)
    return offered


def meaning_is_right(item: ReviewItem, chosen: str) -> bool:
    return chosen.strip().casefold() == item.gloss.strip().casefold()


def typed_is_right(item: ReviewItem, typed: str) -> bool:
    """The word typed for the meaning: the form itself, or its lemma (accents and case aside)."""
    key = normalise(typed.strip(), item.language)
    return bool(key) and key in {item.key, normalise(item.lemma, item.language) if item.lemma else item.key}


def describe(item: ReviewItem) -> str:
    """The word's parse in words ("noun, accusative singular masculine"); empty when it has none."""
    if item.language != "grc" or not item.pos:
        return ""
    try:
        return morphology.describe(item.pos, item.parse)
    except (ValueError, KeyError):
        return ""


def grade(item: ReviewItem, kind: str, answer: Mapping[str, Any], when: datetime | None = None) -> dict[str, Any]:
    """Grade one answer on the review page and reschedule the word (saved). ``answer`` has ``meaning`` (chosen),
    ``word`` (typed), the parse fields, and ``grade`` (``hard``/``good``/``easy`` for a right answer; for a
    self-graded word also ``again``). Returns ``{"right", "wrong_fields", "meaning_right", "rating"}``."""
    wrong_fields: list[str] = []
    meaning_right: bool | None = None
    if kind == PARSE:
        wrong_fields = morphology.compare(answer, {"pos": item.pos, "parse": item.parse})
        if item.gloss and answer.get("meaning"):
            meaning_right = meaning_is_right(item, str(answer["meaning"]))
        right = not wrong_fields and meaning_right is not False
    elif kind == CHOOSE:
        right = meaning_right = meaning_is_right(item, str(answer.get("meaning", "")))
    elif kind == TYPE:
        right = typed_is_right(item, str(answer.get("word", "")))
    else:
        right = answer.get("grade", "good") != "again"
    rating = RATINGS.get(str(answer.get("grade") or "good"), Rating.Good) if right else Rating.Again
    if right and rating == Rating.Again:
        rating = Rating.Good
    review(item, rating, when or timezone.now())
    item.save(update_fields=list(SCHEDULE_FIELDS))
    return {"right": right, "wrong_fields": wrong_fields, "meaning_right": meaning_right, "rating": rating.name}
