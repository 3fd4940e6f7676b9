"""Ordinary refusals are logged as one line, never with a traceback."""

import logging

import pytest
from django.test import Client

from config.logging import RefusalsWithoutTracebacks

pytestmark = pytest.mark.django_db


def test_a_forbidden_page_logs_no_traceback(caplog, teacher, other_teacher, classroom):
    client = Client()
    client.force_login(other_teacher)
    caplog.handler.addFilter(RefusalsWithoutTracebacks())
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(f"/classes/{classroom.id}/")
    assert response.status_code in (403, 404)
    refusals = [r for r in caplog.records if r.name == "django.request"]
    assert refusals
    assert all(r.exc_info is None for r in refusals)
    assert "Traceback" not in caplog.text


def test_the_console_handler_uses_the_filter(settings):
    assert "refusals_without_tracebacks" in settings.LOGGING["handlers"]["console"]["filters"]
