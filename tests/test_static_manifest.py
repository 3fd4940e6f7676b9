"""Every game's table page under the production static storage: collected into a temporary STATIC_ROOT with hashed
names, each asset the page names, and each module those JavaScript files import, resolves to a hashed file there."""

import importlib
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
from django.core.management import call_command
from django.test import override_settings

from games.models import Lesson, Table
from games.rules import GAMES

pytestmark = pytest.mark.django_db

STATIC_URL = "/static/"
ASSET = re.compile(r"""(?:src|href|data-renderer)="(/static/[^"]+)\"""")
IMPORT = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|^import\s*["']([^"']+)["']""", re.M
)
HASHED = re.compile(r"\.[0-9a-f]{12}\.\w+$")


def production_storages(monkeypatch) -> dict:
    monkeypatch.setenv("DJANGO_SECRET_KEY", "x" * 50)
    return importlib.import_module("config.settings.production").STORAGES


def imports(path: Path) -> list[str]:
    return [a or b for a, b in IMPORT.findall(path.read_text(encoding="utf-8"))]


def check_asset(url: str, root: Path, seen: set[str]) -> None:
    """``url`` is a hashed file in ``root``, and so is every module it imports (recursively)."""
    if url in seen:
        return
    seen.add(url)
    assert url.startswith(STATIC_URL), url
    assert HASHED.search(url), f"{url} is not a hashed name"
    path = root / url.removeprefix(STATIC_URL)
    assert path.is_file(), f"{url} is not in STATIC_ROOT"
    if path.suffix == ".js":
        for spec in imports(path):
            check_asset(urljoin(url, spec), root, seen)


def test_every_table_page_resolves_every_asset_under_the_production_storage(
    tmp_path, monkeypatch, client, teacher, classroom
):
    storages = production_storages(monkeypatch)
    lesson = Lesson.objects.create(classroom=classroom, game="palabra", started_by=teacher)
    tables = []
    for number, (slug, rules) in enumerate(sorted(GAMES.items()), start=1):
        state, _ = rules.new_game(rules.min_players, None, 7)
        tables.append(Table.objects.create(lesson=lesson, number=number, game=slug, seed=7, state=state))
    client.force_login(teacher)
    with override_settings(STORAGES=storages, STATIC_ROOT=tmp_path, STATIC_URL=STATIC_URL, DEBUG=False):
        call_command("collectstatic", interactive=False, verbosity=0)
        seen: set[str] = set()
        for table in tables:
            page = client.get(f"/games/tables/{table.id}/")
            assert page.status_code == 200, table.game
            assets = ASSET.findall(page.content.decode())
            assert any("/renderers/" in a for a in assets), f"{table.game}: no renderer on the page"
            for url in assets:
                check_asset(url, tmp_path, seen)
    assert any(url.rsplit("/", 1)[-1].startswith("kit.") for url in seen)  # reached through an import
