"""The import graph of docs/architecture.md, drawn from the code.

    python scripts/architecture_graph.py          # print the Mermaid diagram
    python scripts/architecture_graph.py --write  # put it into docs/architecture.md

The diagram shows one box per app or layer and an arrow wherever a module of one imports a
module of the other (imports inside ``if TYPE_CHECKING`` excepted). ``tests/test_architecture.py``
fails when the diagram in the docs is not the one the code draws.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- import graph: begin (scripts/architecture_graph.py --write) -->"
END = "<!-- import graph: end -->"

#: The boxes, top to bottom, grouped: (group title, [(package, label), ...]).
BOXES: list[tuple[str, list[tuple[str, str]]]] = [
    ("project", [("bob", "bob: settings, urls, Celery")]),
    ("demo app", [("demo", "demo")]),
    ("board app", [("table", "table: the judge's board")]),
    (
        "tournament app",
        [
            ("tournaments.urls", "urls"),
            ("tournaments.admin", "admin"),
            ("tournaments.api", "api"),
            ("tournaments.management", "management"),
            ("tournaments.tasks", "tasks"),
            ("tournaments.templatetags", "templatetags"),
            ("tournaments.views", "views"),
            ("tournaments.web", "web"),
            ("tournaments.sheets", "sheets"),
            ("tournaments.interchange", "interchange"),
            ("tournaments.forms", "forms"),
            ("tournaments.actions", "actions"),
            ("tournaments.queries", "queries"),
            ("tournaments.caching", "caching"),
            ("tournaments.domain", "domain"),
            ("tournaments.models", "models"),
        ],
    ),
    ("rules engine", [("rules.engine", "rules.engine")]),
]


def _node(package: str) -> str:
    return package.replace(".", "_")


def diagram() -> str:
    """The Mermaid flowchart of the code as it is."""
    graph = grimp.build_graph(
        "bob",
        "demo",
        "table",
        "tournaments",
        "rules",
        cache_dir=None,
        exclude_type_checking_imports=True,
    )
    packages = [package for _title, boxes in BOXES for package, _label in boxes]
    lines = ["```mermaid", "flowchart TD"]
    for title, boxes in BOXES:
        lines.append(f'  subgraph {_node(title)}["{title}"]')
        lines += [f'    {_node(package)}["{label}"]' for package, label in boxes]
        lines.append("  end")
    for importer in packages:
        for imported in packages:
            if importer == imported or imported.startswith(importer + "."):
                continue
            if importer.startswith(imported + "."):
                continue
            if graph.direct_import_exists(importer=importer, imported=imported, as_packages=True):
                lines.append(f"  {_node(importer)} --> {_node(imported)}")
    lines.append("```")
    return "\n".join(lines)


def documented() -> str:
    """The diagram as docs/architecture.md has it."""
    text = DOC.read_text()
    return text[text.index(BEGIN) + len(BEGIN) : text.index(END)].strip()


def write() -> None:
    text = DOC.read_text()
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    DOC.write_text(text[:start] + "\n" + diagram() + "\n" + text[end:])


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        print(diagram())
