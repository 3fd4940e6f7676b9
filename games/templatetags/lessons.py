"""``{% lesson_panel %}``: the class page's lesson card (start, running, or "go to your table")."""

from django import template

from games import selectors

register = template.Library()


@register.inclusion_tag("games/lesson_panel.html", takes_context=True)
def lesson_panel(context: template.Context) -> dict:
    classroom = context["classroom"]
    user = context["request"].user
    lesson = selectors.running_lesson(classroom)
    return {
        "classroom": classroom,
        "lesson": lesson,
        "is_teacher": user.is_teacher,
        "my_table": selectors.table_of(user, lesson) if lesson and not user.is_teacher else None,
        "title": selectors.game_title(lesson.game) if lesson else "",
        "kept": selectors.kept_tables(classroom).count() if user.is_teacher and not lesson else 0,
    }


@register.simple_tag(takes_context=True)
def my_table_url(context: template.Context) -> str:
    """The page of the student's table in the class's running lesson, or "" (the class page compares it with what
    the server says on connect, to catch a lesson start it missed)."""
    return selectors.my_table_url(context["request"].user, context["classroom"])
