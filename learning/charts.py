"""Charts for the report pages, drawn on the server as inline SVG: no scripts, no external services, printable.

Every text in a chart is escaped here; each chart carries a ``<title>`` and per-mark ``<title>``s so screen readers
and hover tooltips tell the figures the marks show.
"""

from collections.abc import Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

BAR_HEIGHT = 22
LABEL_WIDTH = 170
BAR_WIDTH = 300


def percent_bars(title: str, rows: Sequence[tuple[str, int | None, str]]) -> SafeString:
    """Horizontal bars of percentages: ``rows`` of (label, percent or None, detail shown after the bar)."""
    height = BAR_HEIGHT * len(rows) + 4
    width = LABEL_WIDTH + BAR_WIDTH + 120
    parts = [
        f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
    ]
    for i, (label, value, detail) in enumerate(rows):
        y = i * BAR_HEIGHT + 2
        filled = 0 if value is None else BAR_WIDTH * max(0, min(value, 100)) / 100
        shown = "–" if value is None else f"{value}%"
        parts.append(
            f"<g><title>{escape(label)}: {shown} {escape(detail)}</title>"
            f'<text x="{LABEL_WIDTH - 8}" y="{y + 15}" text-anchor="end" class="chart-label">{escape(label)}</text>'
            f'<rect x="{LABEL_WIDTH}" y="{y + 3}" width="{BAR_WIDTH}" height="{BAR_HEIGHT - 8}" class="chart-track"/>'
            f'<rect x="{LABEL_WIDTH}" y="{y + 3}" width="{filled:.1f}" height="{BAR_HEIGHT - 8}" class="chart-bar"/>'
            f'<text x="{LABEL_WIDTH + BAR_WIDTH + 8}" y="{y + 15}" class="chart-value">{shown} {escape(detail)}</text>'
            "</g>"
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped


def count_bars(title: str, rows: Sequence[tuple[str, int]]) -> SafeString:
    """Horizontal bars of counts, scaled to the largest."""
    top = max((count for _, count in rows), default=0) or 1
    height = BAR_HEIGHT * len(rows) + 4
    width = LABEL_WIDTH + BAR_WIDTH + 60
    parts = [
        f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
    ]
    for i, (label, count) in enumerate(rows):
        y = i * BAR_HEIGHT + 2
        length = BAR_WIDTH * count / top
        parts.append(
            f"<g><title>{escape(label)}: {count}</title>"
            f'<text x="{LABEL_WIDTH - 8}" y="{y + 15}" text-anchor="end" class="chart-label">{escape(label)}</text>'
            f'<rect x="{LABEL_WIDTH}" y="{y + 3}" width="{length:.1f}" height="{BAR_HEIGHT - 8}" '
            'class="chart-bar chart-bar-miss"/>'
            f'<text x="{LABEL_WIDTH + length + 6:.1f}" y="{y + 15}" class="chart-value">{count}</text>'
            "</g>"
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped


def progress_line(title: str, values: Sequence[int | None], width: int = 160, height: int = 36) -> SafeString:
    """A small line of percentages over lessons (gaps where a lesson had no marked answers)."""
    step = width / max(len(values) - 1, 1)
    points = [
        (i * step if len(values) > 1 else width / 2, height - 3 - (height - 6) * v / 100)
        for i, v in enumerate(values)
        if v is not None
    ]
    shown = ", ".join("–" if v is None else f"{v}%" for v in values)
    parts = [
        f'<svg class="chart spark" role="img" viewBox="-4 0 {width + 8} {height}" width="{width + 8}" '
        f'height="{height}" xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}: {shown}</title>'
        f'<line x1="0" x2="{width}" y1="{height - 3}" y2="{height - 3}" class="chart-track-line"/>'
    ]
    if len(points) > 1:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(f'<polyline points="{path}" class="chart-line"/>')
    parts.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" class="chart-dot"/>' for x, y in points)
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped


def _field_rows(by_field: list[dict]) -> list[tuple[str, int | None, str]]:
    return [(row["field"], row["percent"], f"({row['right']}/{row['total']})") for row in by_field]


def class_charts(figures: dict) -> dict[str, Any]:
    """The class report's charts, from its stored figures (``progress``: one chart per student id)."""
    found: dict[str, Any] = {}
    if figures["by_field"]:
        found["by_field"] = percent_bars("Parse accuracy by field", _field_rows(figures["by_field"]))
    if figures["most_missed"]:
        missed = figures["most_missed"]
        rows = [(f"{w['form']} ({w['lemma']})" if w["lemma"] else w["form"], w["wrong"]) for w in missed]
        found["most_missed"] = count_bars("Most-missed words: wrong answers", rows)
    found["progress"] = {
        row["id"]: progress_line(f"{row['name']}: right answers per lesson", row["progress"])
        for row in figures["students"]
    }
    return found


def student_charts(figures: dict) -> dict[str, SafeString]:
    """A student report's charts, from its stored figures."""
    found = {}
    if figures["by_field"]:
        found["by_field"] = percent_bars("Parse accuracy by field", _field_rows(figures["by_field"]))
    if figures["by_pos"]:
        rows = [(row["label"], row["percent"], f"({row['right']}/{row['total']})") for row in figures["by_pos"]]
        found["by_pos"] = percent_bars("Accuracy by part of speech", rows)
    lessons = [lesson for lesson in figures["lessons"] if lesson is not None]
    if lessons:
        rows = [(lesson["date"], lesson["percent"], f"· {lesson['played']} played") for lesson in lessons]
        found["lessons"] = percent_bars("Right answers per lesson", rows)
    return found
