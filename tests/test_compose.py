"""compose.yaml runs what ``make serve`` runs (Docker itself cannot run where the tests do).

``make serve`` is ``scripts/serve.py`` with no part: it runs ``prepare`` and then every
service. Each compose service of BoB must run one of those parts through the same script,
every part must have its service, and the services must start in the same order (prepare
finished first, on a healthy PostgreSQL and Redis).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _serve():
    spec = importlib.util.spec_from_file_location("serve", ROOT / "scripts/serve.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def _bob_services(compose: dict) -> dict[str, dict]:
    return {name: service for name, service in compose["services"].items() if "build" in service}


def test_make_serve_runs_the_serve_script_whole():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^serve:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe is not None, "the Makefile has no serve target"
    assert recipe.group(1).strip() == "$(PY) scripts/serve.py"


def test_every_part_of_make_serve_is_a_compose_service_with_the_same_command():
    serve = _serve()
    services = _bob_services(_compose())
    parts = {}
    for name, service in services.items():
        command = service["command"]
        assert command[:2] == ["python", "scripts/serve.py"], (name, command)
        assert command[2] in serve.COMMANDS, (name, command)
        parts[command[2]] = name
    assert set(parts) == {"prepare", *serve.SERVICES}


def test_services_start_after_prepare_on_healthy_databases():
    compose = _compose()
    services = _bob_services(compose)
    prepare = next(s for s in services.values() if s["command"][2] == "prepare")
    assert prepare["restart"] == "no"
    assert prepare["depends_on"] == {
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
    }
    for service in services.values():
        if service is prepare:
            continue
        assert service["depends_on"] == {"prepare": {"condition": "service_completed_successfully"}}
    for name in ("postgres", "redis"):
        assert compose["services"][name]["volumes"], f"{name} keeps its data in a volume"
        assert "healthcheck" in compose["services"][name]


def test_the_environment_is_what_serve_requires():
    serve = _serve()
    environment = next(iter(_bob_services(_compose()).values()))["environment"]
    resolved = {
        key: "set" if "${" in str(value) else str(value) for key, value in environment.items()
    }
    assert serve.environment_problems(resolved) == []
    assert environment["DEBUG"] == "0"
    assert environment["DATABASE_URL"].startswith("postgres://")
    assert environment["REDIS_URL"].startswith("redis://")


def test_serve_explains_what_is_missing(capsys):
    serve = _serve()
    problems = serve.environment_problems({})
    assert [problem.split(" ")[0] for problem in problems] == [
        "DATABASE_URL",
        "REDIS_URL",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
    ]
    assert serve.main(["serve.py", "nonsense"]) == 2
    assert "unknown part 'nonsense'" in capsys.readouterr().err


def test_a_part_that_stops_is_started_again_as_under_make_serve():
    for name, service in _bob_services(_compose()).items():
        if service["command"][2] == "prepare":
            continue
        assert service["restart"] == "unless-stopped", name
        assert service["stop_grace_period"] == "30s", name


def test_mail_reaches_the_settings_unset_unless_given():
    environment = next(iter(_bob_services(_compose()).values()))["environment"]
    # An empty EMAIL_BACKEND lets EMAIL_HOST choose SMTP (bob/settings.py).
    assert environment["EMAIL_BACKEND"] == "${EMAIL_BACKEND:-}"
    for variable in ("EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_HOST_PASSWORD"):
        assert environment[variable] == f"${{{variable}:-}}"
