"""The accessibility report of a run, test-artifacts/accessibility-report.txt.

Each page audit (a test case per page and language) attaches its findings to its own test
report (``user_properties``); the process that reports the run, the xdist controller when the
cases are spread over workers, gathers them (tests/conftest.py) and writes one file, in the
order of the cases, so that workers never write it at the same time.
"""

from __future__ import annotations

from pathlib import Path

REPORT = Path(__file__).resolve().parents[2] / "test-artifacts" / "accessibility-report.txt"
PROPERTY = "accessibility"


def summary(blocking: list[str], other: list[str]) -> str:
    lines = [f"{len(blocking)} serious or critical accessibility problems:", *blocking]
    if other:
        lines += ["", "moderate or minor (not failing):", *other]
    return "\n".join(lines)


def record(node, order, blocking: list[str], other: list[str]) -> None:
    """Attach one case's findings to its test report; ``order`` (numbers, or a tuple of
    them) places them in the file."""
    node.user_properties.append((PROPERTY, {"order": order, "blocking": blocking, "other": other}))


def findings_of(report) -> list[dict]:
    """The findings a test report carries (lists, not tuples, once they crossed from a worker)."""
    return [value for name, value in report.user_properties if name == PROPERTY]


def write(findings: list[dict]) -> None:
    ordered = sorted(findings, key=lambda found: found["order"])
    blocking = [line for found in ordered for line in found["blocking"]]
    other = [line for found in ordered for line in found["other"]]
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(summary(blocking, other) + "\n", encoding="utf-8")
