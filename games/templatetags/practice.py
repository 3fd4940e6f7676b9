"""``{% practice_panel %}``: on a student's class page, start a practice game against robots or resume one;
``{% class_practice %}``: the class report's practice time and words per student."""

from typing import Any

from django import template

from games import robots, selectors
from games.services import practice

register = template.Library()


@register.inclusion_tag("games/practice_panel.html", takes_context=True)
def practice_panel(context: template.Context) -> dict[str, Any]:
    student = context["student"]
    games = practice.practice_games(student.classroom)
    tables = practice.practice_tables(student)
    return {
        "games": [
            {"slug": slug, "title": rules.title, "solo": rules.max_players == 1, "most": min(3, rules.max_players - 1)}
            for slug, rules in games.items()
        ],
        "levels": robots.LEVEL_CHOICES,
        "tables": [
            {"id": t.id, "title": selectors.game_title(t.game), "status": t.get_status_display(), "updated": t.updated}
            for t in tables
        ],
    }


@register.inclusion_tag("games/class_practice.html")
def class_practice(classroom: Any) -> dict[str, Any]:
    return {"rows": practice.class_practice(classroom)}
