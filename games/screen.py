"""Reads for the classroom projector: the join address as a QR code, the roster, a leaderboard across the tables
of the lesson, and at the end a podium and the lesson's words.

Scores are each game's own: the envelope's ``scores.total``, its ``winners`` once a game is over, and the game's
``high_score_wins`` (lowest-wins games rank the other way). Players of different games are ranked within their game.
"""

import io
from collections import Counter
from typing import Any

import segno
from django.db.models import Count, Min
from django.urls import reverse

from games import selectors
from games.engine import censor
from games.models import Lesson, Move, Table
from learning.models import Classroom, Encounter

PODIUM = 3
WORDS = 5


def join_address(request_base: str, classroom: Classroom) -> str:
    """The address a student's phone opens to join: the join page with the class's code filled in."""
    return f"{request_base.rstrip('/')}{reverse('learning:join')}?code={classroom.join_code}"


def qr_svg(text: str) -> str:
    """``text`` as a QR code, an inline SVG drawn on the server (no script, no third party), scaled by CSS."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=1, border=4, xmldecl=False, svgns=True, svgclass="qr", lineclass="qr-line")
    svg = out.getvalue().decode()
    width, _ = code.symbol_size(scale=1, border=4)
    # A viewBox lets the page size the code; the path keeps segno's exact module grid.
    return svg.replace(f'width="{width}" height="{width}"', f'viewBox="0 0 {width} {width}" role="img"', 1)


def latest_lesson(classroom: Classroom) -> Lesson | None:
    return classroom.lessons.order_by("-created").first()


def leaderboard(lesson: Lesson) -> list[dict[str, Any]]:
    """Every player at the lesson's tables, best first within each game, with their table and score."""
    rows: list[dict[str, Any]] = []
    for table in lesson.tables.order_by("number").prefetch_related("history"):
        row = selectors.dashboard_row(table)
        winners = set(row["winners"])
        for p in row["players"]:
            if p["removed"]:
                continue
            rows.append(
                {
                    "name": p["name"],
                    "table": table.number,
                    "game": row["title"],
                    "score": p["score"],
                    "provisional": row["provisional"],
                    "winner": p["name"] in winners,
                    "finished": row["finished"],
                    "high_score_wins": row["high_score_wins"],
                }
            )
    rows.sort(key=lambda r: (r["game"], -r["score"] if r["high_score_wins"] else r["score"], r["name"]))
    start, rank = 0, 0
    for i, r in enumerate(rows):
        before = rows[i - 1] if i else None
        if before is None or before["game"] != r["game"]:
            start, rank = i, 1
        elif before["score"] != r["score"]:
            rank = i - start + 1
        r["rank"] = rank  # competition ranking within each game: ties share a place
    return rows


def podium(lesson: Lesson) -> list[dict[str, Any]]:
    """The best players of the lesson's main game (first, second, third; ties share a step)."""
    rows = [r for r in leaderboard(lesson) if r["game"] == selectors.game_title(lesson.game)]
    return [r for r in rows if r["rank"] <= PODIUM]


def _word_scores(lesson: Lesson) -> Counter[str]:
    """The best score each word earned in a single play, from the public side of the lesson's move events (games
    that score words name them with their points: ``{"word": ..., "score"|"points"|"value": n}``)."""
    best: Counter[str] = Counter()
    events = Move.objects.filter(table__lesson=lesson).values_list("events", flat=True)
    for move_events in events:
        stack: list[Any] = [censor(ev, None) for ev in move_events]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                word = item.get("word")
                points = next((item[k] for k in ("score", "points", "value") if isinstance(item.get(k), int)), None)
                if isinstance(word, str) and points is not None and points > best[word]:
                    best[word] = points
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
    return best


def lesson_words(lesson: Lesson) -> dict[str, list[dict[str, Any]]]:
    """The lesson's words: most played, highest scoring, rarest; each with its meaning where the lexicon has one."""
    found = Encounter.objects.filter(lesson_id=lesson.id)
    glosses = {row["form"]: row["gloss"] for row in found.exclude(gloss="").values("form", "gloss")}
    most = list(
        found.filter(kind=Encounter.Kind.PLAYED)
        .values("form")
        .annotate(times=Count("id"))
        .order_by("-times", "form")[:WORDS]
    )
    rare = list(
        found.filter(frequency__isnull=False)
        .values("form")
        .annotate(frequency=Min("frequency"))
        .order_by("frequency", "form")[:WORDS]
    )
    scoring = _word_scores(lesson).most_common(WORDS)
    return {
        "most_played": [{"word": r["form"], "times": r["times"], "meaning": glosses.get(r["form"], "")} for r in most],
        "highest_scoring": [{"word": w, "points": p, "meaning": glosses.get(w, "")} for w, p in scoring],
        "rarest": [{"word": r["form"], "meaning": glosses.get(r["form"], "")} for r in rare],
    }


def screen_data(classroom: Classroom) -> dict[str, Any]:
    """What the projector shows now: before a lesson the roster; during one the leaderboard (and who waits);
    after one the podium and the lesson's words."""
    roster = [s.display_name for s in classroom.students.filter(active=True).order_by("joined", "id")]
    lesson = latest_lesson(classroom)
    data: dict[str, Any] = {"roster": roster, "mode": "join", "lesson": None}
    if lesson is None:
        return data
    data["lesson"] = {"id": lesson.id, "game": selectors.game_title(lesson.game), "ended": lesson.ended is not None}
    if lesson.ended is None:
        data["mode"] = "lesson"
        data["leaderboard"] = leaderboard(lesson)
        data["tables"] = lesson.tables.exclude(status=Table.Status.FINISHED).count()
    else:
        data["mode"] = "podium"
        data["podium"] = podium(lesson)
        data["words"] = lesson_words(lesson)
    return data
