"""Bench: build the class report for 30 students with 100,000 encounters on PostgreSQL (target ≤ 3 s), with the
memory model's figures (words known and fading, from 150 review items per student, four in five reviewed).

Creates a scratch database (``bench_reports``), migrates it, fills it, times ``learning.reports.build_report`` (the
Celery job's body, run here in-process as the worker would) and drops the database. Usage:

    .venv/bin/python bench/reports/run.py [--encounters 100000] [--students 30] [--runs 3]

The server is taken from ``BENCH_POSTGRES`` (default ``postgres://postgres@127.0.0.1:5432``).
"""

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]
SERVER = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
DATABASE = "bench_reports"

NOUN = {"case": "A", "number": "S", "gender": "M"}
VERB = {"person": "3", "tense": "I", "voice": "A", "mood": "I", "number": "S"}
WRONG_VALUES = {
    "case": "NGDV",
    "gender": "FN",
    "number": "P",
    "person": "12",
    "tense": "APFX",
    "voice": "MP",
    "mood": "S",
}


def admin(sql: str) -> None:
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"{SERVER}/{DATABASE}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    os.environ["LOG_LEVEL"] = "WARNING"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def fill(students: int, encounters: int, lessons: int = 10, teacher_name: str = "bench-teacher") -> int:
    from django.utils import timezone

    from learning import services
    from learning.models import Encounter, ReviewItem, User

    rng = random.Random(7)
    teacher = User.objects.create_user(username=teacher_name, password="x", role=User.Role.TEACHER)
    classroom = services.create_classroom(teacher, "Bench class", "grc")
    pupils = [services.join_classroom(classroom.join_code, f"Student {i:02d}") for i in range(students)]
    words = []
    for i in range(2000):
        verb = i % 3 == 0
        words.append((f"KEY{i}", f"form{i}", f"lemma{i // 4}", "V" if verb else "N", VERB if verb else NOUN))
    start = timezone.now() - timedelta(days=lessons * 7)
    kinds = ["played", "seen", "seen", "parsed", "quizzed", "quizzed", "taught"]
    rows = []
    for n in range(encounters):
        key, form, lemma, pos, parse = rng.choice(words)
        kind = rng.choice(kinds)
        correct, given, wrong = None, {}, []
        if kind in ("parsed", "quizzed"):
            correct = rng.random() < 0.7
            given = dict(parse)
            if not correct:
                field = rng.choice(list(parse))
                given[field] = rng.choice(WRONG_VALUES[field])
                wrong = [field]
        lesson = n * lessons // encounters
        rows.append(
            Encounter(
                student=pupils[n % students], classroom=classroom, key=key, form=form, lemma=lemma, pos=pos,
                gloss=f"gloss of {lemma}", frequency=rng.randint(1, 50), rare=rng.random() < 0.1, kind=kind,
                correct=correct, expected=parse, given=given, wrong_fields=wrong, game="grabble", lesson_id=lesson + 1,
                table_id=lesson + 1, move_id=n, turn=n % 40, created=start + timedelta(days=7 * lesson, seconds=n),
            )
        )  # fmt: skip
        if len(rows) == 10_000:
            Encounter.objects.bulk_create(rows)
            rows = []
    Encounter.objects.bulk_create(rows)
    today = timezone.localdate()
    now = timezone.now()

    def card(rng: random.Random) -> dict:
        """A reviewed card: its memory model's stability, difficulty and last review, due when the model says."""
        stability = rng.uniform(0.5, 40)
        last = now - timedelta(days=rng.uniform(0, 30))
        return {"state": 2, "stability": stability, "difficulty": rng.uniform(2, 9), "last_reviewed": last,
                "reviews": rng.randint(1, 8), "due": (last + timedelta(days=stability)).date()}  # fmt: skip

    ReviewItem.objects.bulk_create(
        ReviewItem(student=p, language="grc", key=w[0], form=w[1], lemma=w[2], pos=w[3], parse=w[4],
                   **(card(rng) if rng.random() < 0.8 else {"due": today}))
        for p in pupils for w in rng.sample(words, 150)
    )  # fmt: skip
    return classroom.pk


def bench(classroom_id: int, runs: int) -> list[float]:
    from learning import reports
    from learning.models import Report

    timings = []
    for _ in range(runs):
        report = Report.objects.create(scope="class", classroom_id=classroom_id)
        began = time.perf_counter()
        reports.build_report(report.pk)
        timings.append(time.perf_counter() - began)
        report.refresh_from_db()
        assert report.status == "done", report.error_message
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encounters", type=int, default=100_000)
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    admin(f"DROP DATABASE IF EXISTS {DATABASE}")
    admin(f"CREATE DATABASE {DATABASE}")
    try:
        setup_django()
        began = time.perf_counter()
        classroom_id = fill(args.students, args.encounters)
        print(
            f"filled {args.encounters:,} encounters for {args.students} students in {time.perf_counter() - began:.1f} s"
        )
        timings = bench(classroom_id, args.runs)
        print(
            f"class report ({args.students} students, {args.encounters:,} encounters): "
            f"min {min(timings):.2f} s, median {statistics.median(timings):.2f} s, max {max(timings):.2f} s "
            f"over {args.runs} runs (target ≤ 3 s)"
        )
    finally:
        from django.db import connections

        connections.close_all()
        admin(f"DROP DATABASE IF EXISTS {DATABASE}")


if __name__ == "__main__":
    main()
