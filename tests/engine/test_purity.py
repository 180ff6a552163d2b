"""The rules engine is pure Python: no module under rules/engine imports Django."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "rules" / "engine"


def engine_modules():
    return sorted(ENGINE.rglob("*.py"))


def test_no_engine_source_mentions_a_django_import():
    offenders = []
    for path in engine_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [
                f"{path.relative_to(ENGINE)}: {n}" for n in names if n.split(".")[0] == "django"
            ]
    assert engine_modules(), "no engine sources found"
    assert offenders == []


def test_importing_every_engine_module_loads_no_django():
    root = ENGINE.parents[1]
    modules = [
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        for path in engine_modules()
    ]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(loaded)\n"
        "sys.exit(1 if loaded else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
