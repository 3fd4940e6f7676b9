"""Settings come from the environment: embedded defaults on a bare machine, real services when configured,
and production settings that pass Django's deployment checks."""

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
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
        "layer": "config.channel_layer.ChannelLayer",
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


def test_the_redis_layer_survives_a_slow_or_restarted_redis():
    """redis-py 8's 5 s socket timeout is raised, and a dead connection is checked and retried on a new one."""
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE"}}
    env.update(REDIS_URL="redis://127.0.0.1:6379/0", DJANGO_SETTINGS_MODULE="config.settings.base")
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps(s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0], default=repr))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    host = json.loads(out.stdout)
    assert host["address"] == "redis://127.0.0.1:6379/0"
    assert host["socket_timeout"] > 5
    assert host["health_check_interval"] > 0
    assert "Retry" in host["retry"]


def run_django(code: str, env: dict[str, str], module: str = "config.settings.base") -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    clean.update(env, DJANGO_SETTINGS_MODULE=module)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True)


PRODUCTION = {
    "DJANGO_SECRET_KEY": "x" * 20 + "a-long-random-production-secret-key-!@#$%^&*()",
    "DJANGO_ALLOWED_HOSTS": "play.example.org",
}


def test_every_true_spelling_turns_the_https_redirect_on():
    code = "import django; django.setup(); from django.conf import settings as s; print(s.SECURE_SSL_REDIRECT)"
    for value, expected in (("1", "True"), ("true", "True"), ("on", "True"), ("0", "False"), ("false", "False")):
        result = run_django(code, {**PRODUCTION, "DJANGO_SECURE_SSL_REDIRECT": value}, "config.settings.production")
        assert result.stdout.strip() == expected, (value, result.stderr)


def test_a_value_that_cannot_be_read_stops_the_start_naming_the_variable():
    code = "import django; django.setup()"
    for name, value in (("DJANGO_DEBUG", "maybe"), ("DATABASE_POOL_MAX_SIZE", "ten"), ("PORT", "eighty")):
        result = run_django(code, {name: value})
        assert result.returncode != 0
        assert name in result.stderr


def test_a_number_out_of_its_range_stops_the_start_naming_the_variable_and_the_range():
    """Every bounded number of the settings is checked when they load, never taken as it is (a validator that only
    returned False passed everything: marshmallow 4 counts only a raised error)."""
    code = "import django; django.setup()"
    refused = {
        "PORT": ("0", "70000"),
        "DATABASE_POOL_MAX_SIZE": ("0",),
        "DATABASE_THREADS": ("0", "11"),  # at most DATABASE_POOL_MAX_SIZE, 10 by default
        "DATABASE_LOOP_CONNECTIONS": ("0",),
        "MOVE_TABLE_COPIES": ("-1",),
        "GC_YOUNG_THRESHOLD": ("0", "99"),
        "CELERY_WORKER_NICE": ("-1", "20"),
        "BACKGROUND_SHARE_DURING_PLAY": ("0", "1.5"),
        "CELERY_WORKER_CONCURRENCY": ("1", "65"),
        "BACKGROUND_JOBS_AT_ONCE": ("0",),
    }
    for name, values in refused.items():
        for value in values:
            result = run_django(code, {name: value})
            assert result.returncode != 0, (name, value)
            assert f'"{name}" invalid' in result.stderr, (name, value, result.stderr[-300:])
            assert "Must be" in result.stderr
    hsts = run_django(code, {**PRODUCTION, "DJANGO_HSTS_SECONDS": "-1"}, "config.settings.production")
    assert hsts.returncode != 0
    assert '"DJANGO_HSTS_SECONDS" invalid' in hsts.stderr
    accepted = {
        "PORT": "65535",
        "DATABASE_THREADS": "10",
        "GC_YOUNG_THRESHOLD": "100",
        "BACKGROUND_SHARE_DURING_PLAY": "1",
    }
    for name, value in accepted.items():
        assert run_django(code, {name: value}).returncode == 0, (name, value)


def test_the_long_jobs_leave_a_worker_process_free_for_play():
    """At most one fewer long jobs at once than a worker has processes, by default and when set (config/yielding.py)."""
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.CELERY_WORKER_CONCURRENCY, s.BACKGROUND_JOBS_AT_ONCE)"
    )
    default = run_django(code, {})
    assert default.stdout.split() == [str((os.cpu_count() or 1) + 1), str(os.cpu_count() or 1)], default.stderr
    assert run_django(code, {"CELERY_WORKER_CONCURRENCY": "4"}).stdout.split() == ["4", "3"]
    assert run_django(code, {"CELERY_WORKER_CONCURRENCY": "4", "BACKGROUND_JOBS_AT_ONCE": "2"}).stdout.split() == [
        "4",
        "2",
    ]
    every = run_django(code, {"CELERY_WORKER_CONCURRENCY": "4", "BACKGROUND_JOBS_AT_ONCE": "4"})
    assert every.returncode != 0
    assert '"BACKGROUND_JOBS_AT_ONCE" invalid' in every.stderr


def test_the_demo_teacher_is_never_created_under_production_settings():
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL"}}
    env.update(PRODUCTION, DJANGO_SETTINGS_MODULE="config.settings.production")
    result = subprocess.run([sys.executable, "manage.py", "demo"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "only in development" in result.stderr


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_the_documented_production_command_starts_a_server():
    """The README's server line, run as written (on a free port, with this Python), answers HTTP, on uvloop."""
    line = re.search(r"`python (-m config\.serve [^`]+)`", (ROOT / "README.md").read_text(encoding="utf-8")).group(1)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = line.split()
    argv[argv.index("-p") + 1] = str(port)
    argv[argv.index("-b") + 1] = "127.0.0.1"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(PRODUCTION, DJANGO_SETTINGS_MODULE="config.settings.production", DJANGO_ALLOWED_HOSTS="127.0.0.1")
    no_redirects = urllib.request.build_opener(NoRedirect)
    server = subprocess.Popen([sys.executable, *argv], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        status = None
        while status is None and time.monotonic() < deadline and server.poll() is None:
            try:
                with no_redirects.open(f"http://127.0.0.1:{port}/join/", timeout=2) as response:
                    status = response.status
            except urllib.error.HTTPError as error:
                status = error.code
            except OSError:
                time.sleep(0.3)
        assert server.poll() is None, server.stderr.read() if server.stderr else ""
        assert status in (200, 301)  # 301: production redirects plain http to https
        assert "uvloop/loop." in Path(f"/proc/{server.pid}/maps").read_text()  # its extension is loaded
    finally:
        server.terminate()
        server.wait(timeout=10)
