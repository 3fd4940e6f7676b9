"""Bench: choosing a student's next word to review from a review list of 5,000 words (target ≤ 50 ms).

Creates a scratch PostgreSQL database (``bench_review``; server from ``BENCH_POSTGRES``, default
``postgres://postgres@127.0.0.1:5432``), or with ``--sqlite`` a scratch SQLite file, migrates it, gives one student
``--items`` review items with memory-model cards (a fifth new, the rest reviewed at random stabilities, about a
third due), and times, per run:

- **next card**: ``learning.srs.next_item`` (the review page's choice of the next word);
- **quiz page**: the review page's whole choice of a question (next word, its kind, its meanings, the due count);
- **floor**: fetching one of the student's items by primary key, the cheapest query the page makes anyway.

Usage: ``.venv/bin/python bench/review/run.py [--items 5000] [--runs 50] [--sqlite]``
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
DATABASE = "bench_review"


def admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def setup_django(url: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.environ["LOG_LEVEL"] = "WARNING"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def fill(items: int) -> int:
    from django.utils import timezone

    from learning import services
    from learning.models import ReviewItem, User

    rng = random.Random(11)
    teacher = User.objects.create_user(username="bench-teacher", password="x", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher, "Bench class", "spa")
    pupil = services.join_classroom(classroom.join_code, "Student")
    other = services.join_classroom(classroom.join_code, "Other")
    now, today = timezone.now(), timezone.localdate()
    rows = []
    for student in (pupil, other):
        for i in range(items):
            card = {"due": today - timedelta(days=rng.randint(0, 3))}
            if rng.random() < 0.8:
                stability = rng.uniform(0.5, 60)
                last = now - timedelta(days=rng.uniform(0, 40))
                card = {"state": 2, "stability": stability, "difficulty": rng.uniform(2, 9), "last_reviewed": last,
                        "reviews": rng.randint(1, 9), "due": (last + timedelta(days=stability)).date()}  # fmt: skip
            rows.append(
                ReviewItem(student=student, language="spa", key=f"W{i}", form=f"palabra{i}", lemma=f"palabra{i}",
                           gloss=f"meaning {i}", **card)
            )  # fmt: skip
    ReviewItem.objects.bulk_create(rows, batch_size=2000)
    return pupil.pk


def timed(fn, runs: int) -> list[float]:
    fn()  # warm
    timings = []
    for _ in range(runs):
        began = time.perf_counter()
        fn()
        timings.append((time.perf_counter() - began) * 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--sqlite", action="store_true")
    args = parser.parse_args()
    scratch = Path(tempfile.gettempdir()) / f"bench-review-{os.getpid()}.sqlite3"
    if args.sqlite:
        url = f"sqlite:///{scratch}"
    else:
        admin(f"DROP DATABASE IF EXISTS {DATABASE}")
        admin(f"CREATE DATABASE {DATABASE}")
        url = f"{SERVER}/{DATABASE}"
    try:
        setup_django(url)
        from learning import srs
        from learning.models import Student
        from learning.review_views import _form

        student = Student.objects.get(pk=fill(args.items))
        some = student.review_items.order_by("pk").values_list("pk", flat=True)[args.items // 2]

        def quiz_page() -> None:
            item = srs.next_item(student)
            _form(item)
            srs.due_items(student).count()

        figures = {
            "floor (one item by primary key)": timed(lambda: student.review_items.filter(pk=some).first(), args.runs),
            "next card (srs.next_item)": timed(lambda: srs.next_item(student), args.runs),
            "quiz page's question (next card, meanings, due count)": timed(quiz_page, args.runs),
        }
        print(f"{args.items:,} review items, {'SQLite' if args.sqlite else 'PostgreSQL'}, {args.runs} runs (ms):")
        for name, ms in figures.items():
            print(f"  {name:55} median {statistics.median(ms):6.2f}  max {max(ms):6.2f}")
        print("target: next card ≤ 50 ms")
    finally:
        from django.db import connections

        connections.close_all()
        if args.sqlite:
            scratch.unlink(missing_ok=True)
        else:
            admin(f"DROP DATABASE IF EXISTS {DATABASE}")


if __name__ == "__main__":
    main()
