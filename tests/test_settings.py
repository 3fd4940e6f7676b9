"""Settings come from the environment: embedded defaults on a bare machine, real services when configured,
and production settings that pass Django's deployment checks."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRINT_SETTINGS = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'db': s.DATABASES['default']['ENGINE'], 'layer': s.CHANNEL_LAYERS['default']['BACKEND'], "
    "'broker': s.CELERY_BROKER_URL, 'eager': s.CELERY_TASK_ALWAYS_EAGER}))"
)


def settings_with(env: dict[str, str], module: str = "config.settings.base") -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    clean.update(env, DJANGO_SETTINGS_MODULE=module)
    out = subprocess.run(
        [sys.executable, "-c", PRINT_SETTINGS], cwd=ROOT, env=clean, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def test_bare_machine_defaults_need_no_services():
    assert settings_with({}) == {
        "db": "django.db.backends.sqlite3",
        "layer": "channels.layers.InMemoryChannelLayer",
        "broker": "memory://",
        "eager": True,
    }


def test_configured_services_are_used():
    configured = settings_with(
        {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test", "REDIS_URL": "redis://127.0.0.1:6379/0"}
    )
    assert configured == {
        "db": "django.db.backends.postgresql",
        "layer": "channels_redis.core.RedisChannelLayer",
        "broker": "redis://127.0.0.1:6379/0",
        "eager": False,
    }


def test_production_settings_pass_the_deployment_checks():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY="x" * 20 + "a-long-random-production-secret-key-!@#$%^&*()",
        DJANGO_ALLOWED_HOSTS="play.example.org",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_redis_layer_outlasts_channels_redis_blocking_read():
    """channels-redis blocks 5 s on an idle server; a shorter socket timeout (redis-py 8's default) drops sockets."""
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE"}}
    env.update(REDIS_URL="redis://127.0.0.1:6379/0", DJANGO_SETTINGS_MODULE="config.settings.base")
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps(s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    host = json.loads(out.stdout)
    assert host["address"] == "redis://127.0.0.1:6379/0"
    assert host["socket_timeout"] > 5
    assert host["max_connections"] >= 1000
