"""The engine's modules import one another in one direction only (docs/engine.md).

Every module of ``rules/engine`` is parsed with :mod:`ast` and every import in it is
read: at the top, inside functions and under ``if TYPE_CHECKING:`` alike, relative or
absolute. An import circle, however it is closed, fails the test naming its modules; so
does an import of a higher layer (:data:`LAYERS`) or an import anywhere but at the top of
a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "rules" / "engine"
PACKAGE = "rules.engine"

#: The engine's layers, lowest first: a module may import its own layer's modules and
#: those of lower layers (``docs/engine.md``). A name ending in ``.*`` is a subpackage.
LAYERS = (
    (
        "foundations",
        (
            "caches",
            "collector",
            "geometry",
            "units",
            "data_errors",
            "event_cards",
            "naming",
            "card_names",
            "schema_inlining",
            "json_text",
            "catalogue_classes",
        ),
    ),
    (
        "narration",
        (
            "figure_names",
            "narration",
            "narration_dice",
            "narration_purposes",
            "narration_sight",
            "narration_state",
            "narration_combat",
            "narration_errors",
            "narration_turns",
            "narration_cards",
            "narration_tools",
        ),
    ),
    ("board and dice", ("board", "maps", "dice", "dice_ahead")),
    ("state", ("session_records", "state_memo", "state")),
    (
        "rules of the board",
        (
            "los",
            "movement",
            "odds",
            "card_effects",
            "combat",
            "rerolls",
            "kill_scores",
            "tarantula",
            "render",
            "flags",
            "turns",
            "vehicles",
        ),
    ),
    ("rules of play", ("play.*",)),
    ("Alien AI", ("ai.*",)),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def engine_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ENGINE.rglob("*.py"))}


def imported_names(path: Path, module: str) -> set[str]:
    """Every module name ``module`` (the file ``path``) imports, wherever the import is:
    for ``from X import Y`` both ``X`` and ``X.Y`` (the caller keeps the modules)."""
    is_package = path.name == "__init__.py"
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            names.add(source)
            names.update(f"{source}.{alias.name}" for alias in node.names)
    return names


def import_graph() -> dict[str, set[str]]:
    """Engine module -> the engine modules it imports (a package's ``__init__`` only when
    imported itself: its docstring-only ``__init__`` imports nothing)."""
    modules = engine_modules()
    return {
        name: {other for other in imported_names(path, name) if other in modules} - {name}
        for name, path in modules.items()
    }


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of an engine module (the package itself: -1)."""
    name = module.removeprefix(PACKAGE).lstrip(".")
    if not name:
        return -1
    for index, (_, members) in enumerate(LAYERS):
        for member in members:
            if name == member or (
                member.endswith(".*") and name.split(".")[0] == member.removesuffix(".*")
            ):
                return index
    raise AssertionError(f"{module} is in no layer: add it to LAYERS and docs/engine.md")


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as a list of modules, the first repeated at the end; or None."""
    done: set[str] = set()
    trail: list[str] = []
    on_trail: set[str] = set()

    def visit(name: str) -> list[str] | None:
        trail.append(name)
        on_trail.add(name)
        for other in sorted(graph[name]):
            if other in on_trail:
                return trail[trail.index(other) :] + [other]
            if other not in done:
                cycle = visit(other)
                if cycle:
                    return cycle
        on_trail.discard(trail.pop())
        done.add(name)
        return None

    for name in sorted(graph):
        if name not in done:
            cycle = visit(name)
            if cycle:
                return cycle
    return None


def test_every_engine_module_is_read():
    graph = import_graph()
    assert f"{PACKAGE}.state" in graph and f"{PACKAGE}.ai.turn" in graph
    assert f"{PACKAGE}.state" in graph[f"{PACKAGE}.movement"]


def test_the_engine_has_no_import_circle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_every_module_imports_only_its_own_layer_and_lower_ones():
    upward = [
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {other} ({LAYERS[layer_of(other)][0]})"
        for module, imported in sorted(import_graph().items())
        for other in sorted(imported)
        if layer_of(other) > layer_of(module)
    ]
    assert not upward, "\n".join(upward)


def test_every_import_is_at_the_top_of_its_module():
    nested = []
    for name, path in engine_modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top:
                nested.append(f"{name} line {node.lineno}")
    assert not nested, "imports inside functions or blocks: " + ", ".join(nested)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("from .state import GameState", "rules.engine.ai.state"),
        ("def f():\n    from ..los import x\n", "rules.engine.los"),
        ("if TYPE_CHECKING:\n    from . import plans\n", "rules.engine.ai.plans"),
        ("import rules.engine.odds as odds", "rules.engine.odds"),
    ],
)
def test_imports_are_read_wherever_they_are(tmp_path, source, expected):
    path = tmp_path / "mod.py"
    path.write_text(source, encoding="utf-8")
    assert expected in imported_names(path, "rules.engine.ai.mod")


def test_a_circle_is_named():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
