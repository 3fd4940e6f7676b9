"""Lexicon import and word-check benchmark (targets in docs/architecture.md, "Performance targets").

    .venv/bin/python bench/lexicons/run.py [--entries 1000000]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/lexicons/run.py

Generates a TSV of N entries (form, lemma, gloss, frequency), imports it through ``lexicons.services.import_lexicon``
into a scratch SQLite file and, when DATABASE_URL names a PostgreSQL server, into a scratch database created on that
server and dropped afterwards. Each import runs in its own process so its peak memory (max RSS) is its own. Then it
times a word check (``WordList.is_word``) per lookup beside a plain Python set lookup over the same keys.
Targets: 1,000,000 entries into PostgreSQL in ≤ 30 s; a word check ≤ 2× the set lookup.
"""

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parents[2]
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def generate(path: Path, entries: int) -> None:
    rng = random.Random(42)
    with open(path, "w", encoding="utf-8") as f:
        f.write("form\tlemma\tgloss\tfrequency\n")
        for i in range(entries):
            word = "".join(rng.choices(LETTERS, k=rng.randint(4, 11))) + LETTERS[i % 26]
            f.write(f"{word}\t{word[:-1]}\tgloss {i}\t{rng.random() * 7:.2f}\n")


def child(path: str, probes: int) -> None:
    """Runs in a subprocess with DATABASE_URL set: migrate, import, time lookups, print JSON."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from django.core.management import call_command

    from lexicons.models import Lexicon
    from lexicons.services import import_lexicon, word_list

    call_command("migrate", verbosity=0)
    lexicon = Lexicon.objects.create(name=f"bench-{uuid.uuid4().hex[:8]}", language="eng")
    start = time.perf_counter()
    count = import_lexicon(lexicon, "csv", [path], max_bytes=1 << 32)
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    lexicon.refresh_from_db()
    start = time.perf_counter()
    words = word_list(lexicon)
    load_seconds = time.perf_counter() - start
    keys = list(Lexicon.objects.get(pk=lexicon.pk).entries.values_list("key", flat=True)[:probes])
    rng = random.Random(7)
    sample = [rng.choice(keys) if i % 2 else "".join(rng.choices(LETTERS, k=8)).upper() for i in range(probes)]
    plain = set(words_keys(lexicon))
    is_word = words.is_word
    set_ns = best_of(lambda: [k in plain for k in sample], len(sample))
    check_ns = best_of(lambda: [is_word(k) for k in sample], len(sample))
    lexicon.delete()
    print(
        json.dumps(
            {
                "entries": count,
                "seconds": seconds,
                "rate": count / seconds,
                "peak_mb": peak_mb,
                "cache_load_s": load_seconds,
                "set_ns": set_ns,
                "check_ns": check_ns,
            }
        )
    )


def words_keys(lexicon):
    return lexicon.entries.values_list("key", flat=True).iterator(chunk_size=20000)


def best_of(run, n: int, repeats: int = 5) -> float:
    """Best time per item in nanoseconds over a few repeats (the least disturbed run)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best / n * 1e9


def run_child(database_url: str, path: Path, probes: int) -> dict:
    env = {**os.environ, "DATABASE_URL": database_url, "CELERY_TASK_ALWAYS_EAGER": "1", "LOG_LEVEL": "WARNING"}
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(path), "--probes", str(probes)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def report(name: str, result: dict) -> None:
    print(
        f"{name:<11} {result['entries']:>9,} entries in {result['seconds']:6.1f} s = {result['rate']:>9,.0f} entries/s"
        f"   peak RSS {result['peak_mb']:6.0f} MB   key cache load {result['cache_load_s']:.1f} s"
    )
    ratio = result["check_ns"] / result["set_ns"]
    check, plain = result["check_ns"], result["set_ns"]
    print(f"{'':<11} word check {check:.0f} ns/lookup vs plain set {plain:.0f} ns ({ratio:.2f}×)")


def scratch_postgres(url: str):
    import psycopg

    parts = urlparse(url)
    name = f"bench_lexicons_{uuid.uuid4().hex[:8]}"
    admin = urlunparse(parts._replace(path="/postgres"))
    return name, urlunparse(parts._replace(path="/" + name)), admin, psycopg


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--probes", type=int, default=200_000)
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.probes)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.tsv"
        start = time.perf_counter()
        generate(path, args.entries)
        size = path.stat().st_size / 1e6
        print(f"generated {args.entries:,} entries ({size:.0f} MB) in {time.perf_counter() - start:.1f} s")
        report("SQLite", run_child(f"sqlite:///{tmp}/bench.sqlite3", path, args.probes))
        url = os.environ.get("DATABASE_URL", "")
        if url.startswith(("postgres://", "postgresql://")):
            name, scratch, admin, psycopg = scratch_postgres(url)
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
            try:
                report("PostgreSQL", run_child(scratch, path, args.probes))
            finally:
                with psycopg.connect(admin, autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        else:
            print("PostgreSQL  skipped (set DATABASE_URL=postgres://… to include it)")


if __name__ == "__main__":
    main()
