"""The review list moves from Leitner boxes to a memory model (FSRS): each item keeps its history (reviews, right
answers, last review, due day) and its box becomes a card whose stability is the box's interval.

At a desired retention of 90%, FSRS schedules a card ``stability`` days after its last review, so a word in box *n*
(reviewed again ``1, 2, 4, 8, 16`` days after its last review) becomes a review card of stability ``1, 2, 4, 8, 16``
days, due on the day its box made it due. Its difficulty comes from its record: 3 (easy) for a word always answered
right, up to 8 for a word always missed; 5 when it was never reviewed. A word never reviewed stays a new card.
"""

from datetime import datetime, time, timedelta

from django.db import migrations, models
from django.utils import timezone

INTERVALS = {1: 1, 2: 2, 3: 4, 4: 8, 5: 16}  # the Leitner boxes' intervals in days
REVIEW = 2  # fsrs.State.Review


def card_from_box(box: int, due, reviews: int, right: int, last_reviewed):
    """(state, stability, difficulty, last_reviewed) of the FSRS card that continues a Leitner item."""
    if reviews == 0 and last_reviewed is None:
        return 0, None, None, None
    interval = INTERVALS.get(box, 1)
    difficulty = 3.0 + 5.0 * (1 - right / reviews) if reviews else 5.0
    if last_reviewed is None:
        last_reviewed = timezone.make_aware(datetime.combine(due - timedelta(days=interval), time(12)))
    return REVIEW, float(interval), round(difficulty, 2), last_reviewed


def boxes_to_cards(apps, schema_editor):
    ReviewItem = apps.get_model("learning", "ReviewItem")
    changed = []
    for item in ReviewItem.objects.iterator(chunk_size=2000):
        item.state, item.stability, item.difficulty, item.last_reviewed = card_from_box(
            item.box, item.due, item.reviews, item.right, item.last_reviewed
        )
        changed.append(item)
        if len(changed) >= 2000:
            ReviewItem.objects.bulk_update(changed, ["state", "stability", "difficulty", "last_reviewed"])
            changed = []
    ReviewItem.objects.bulk_update(changed, ["state", "stability", "difficulty", "last_reviewed"])


def cards_to_boxes(apps, schema_editor):
    """Back to boxes: the box whose interval is nearest the card's stability."""
    ReviewItem = apps.get_model("learning", "ReviewItem")
    for item in ReviewItem.objects.exclude(stability=None).iterator(chunk_size=2000):
        item.box = min(INTERVALS, key=lambda box: (abs(INTERVALS[box] - item.stability), box))
        item.save(update_fields=["box"])


class Migration(migrations.Migration):
    dependencies = [("learning", "0003_learning_records")]

    operations = [
        migrations.AddField("reviewitem", "state", models.PositiveSmallIntegerField(default=0)),
        migrations.AddField(
            "reviewitem",
            "stability",
            models.FloatField(blank=True, null=True, help_text="Days until predicted recall falls to 90%."),
        ),
        migrations.AddField("reviewitem", "difficulty", models.FloatField(blank=True, null=True)),
        migrations.RunPython(boxes_to_cards, cards_to_boxes),
        migrations.RemoveField("reviewitem", "box"),
        migrations.AlterModelOptions("reviewitem", {"ordering": ["due", "stability", "form"]}),
        migrations.AddIndex("reviewitem", models.Index(fields=["student", "due"], name="learning_review_due")),
    ]
