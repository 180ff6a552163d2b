"""The layout docs/architecture.md describes holds: no module name has a twin, and pages,
commands and tasks write only through actions. (What may import what is checked by
``lint-imports`` in ``make lint``, with the contracts in pyproject.toml.)"""

from __future__ import annotations

import ast
import importlib.util
from collections import defaultdict
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Folders organised by audience or by command name, whose modules may share a name
#: with a module elsewhere (``forms/loadout.py`` is the loadout's form).
BY_AUDIENCE = {"views", "forms", "commands", "migrations", "templatetags"}
#: Names Django gives every app, or every API.
CONVENTIONAL = {"__init__", "admin", "apps", "urls", "views", "tasks", "models"}


def _modules(package: str) -> list[Path]:
    return [
        path
        for path in (ROOT / package).rglob("*.py")
        if not BY_AUDIENCE & set(path.relative_to(ROOT).parts[:-1])
        and path.stem not in CONVENTIONAL
    ]


def _stem(name: str) -> str:
    """``loadouts`` and ``loadout``, ``catalogue_db`` and ``catalogue`` are twins."""
    for suffix in ("_db", "s"):
        name = name.removesuffix(suffix)
    return name


@pytest.mark.parametrize("package", ["tournaments", "table"])
def test_no_module_name_has_a_twin(package):
    by_stem: dict[str, list[str]] = defaultdict(list)
    for path in _modules(package):
        by_stem[_stem(path.stem)].append(str(path.relative_to(ROOT)))
    twins = {stem: paths for stem, paths in by_stem.items() if len(paths) > 1}
    assert not twins, f"modules whose names say the same thing: {twins}"


#: Calls that write rows, and the transaction only writes need.
WRITES = {"save", "delete", "create", "bulk_create", "get_or_create", "update_or_create"}
WRITES |= {"bulk_update", "atomic"}
THIN = [
    "tournaments/views",
    "tournaments/api",
    "tournaments/management/commands",
    "tournaments/tasks.py",
    "table/views.py",
    "table/touch_views.py",
    "table/tasks.py",
    "table/management/commands",
]


def _writes(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Call | ast.Attribute):
            continue
        target = node.func if isinstance(node, ast.Call) else node
        if not isinstance(target, ast.Attribute) or target.attr not in WRITES:
            continue
        if isinstance(node, ast.Attribute) and node.attr != "atomic":
            continue  # a call's own attribute: judged with the call
        if isinstance(node, ast.Call) and any(
            keyword.arg == "commit"
            and isinstance(keyword.value, ast.Constant)
            and keyword.value.value is False
            for keyword in node.keywords
        ):
            continue  # form.save(commit=False) only builds the object for an action
        found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{target.attr}")
    return found


def test_pages_commands_and_tasks_write_only_through_actions():
    paths = []
    for place in THIN:
        target = ROOT / place
        paths += [target] if target.is_file() else sorted(target.rglob("*.py"))
    found = sorted({line for path in paths for line in _writes(path)})
    assert not found, "writes outside the actions: " + ", ".join(found)


def test_the_documented_picture_is_the_codes():
    spec = importlib.util.spec_from_file_location("graph", ROOT / "scripts/architecture_graph.py")
    graph = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(graph)
    assert graph.documented() == graph.diagram(), (
        "docs/architecture.md's import graph is out of date: "
        "run python scripts/architecture_graph.py --write and check the change"
    )


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``edges`` (module -> modules it imports): every strongly
    connected group of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imports = work[-1]
            for imported in imports:
                if imported not in index:
                    index[imported] = low[imported] = len(index)
                    stack.append(imported)
                    on_stack.add(imported)
                    work.append((imported, iter(sorted(edges[imported]))))
                    break
                if imported in on_stack:
                    low[module] = min(low[module], index[imported])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        circles.append(sorted(group))
    return circles


def test_the_apps_have_no_import_circle():
    """Modules import one another one way (the engine's own test covers rules.engine)."""
    apps = ("bob", "demo", "table", "tournaments")
    graph = grimp.build_graph(*apps, cache_dir=None, exclude_type_checking_imports=True)
    edges = {
        module: {
            imported
            for imported in graph.find_modules_directly_imported_by(module)
            if imported.split(".")[0] in apps
        }
        for module in graph.modules
        if module.split(".")[0] in apps
    }
    assert _circles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    assert _circles(edges) == []
