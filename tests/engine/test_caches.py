"""The engine's caches: one bounded dict that forgets its older half, declared in one list."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.reference_position import reference_state
from rules.engine.ai.policies import policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.caches import BoundedCache, clear_caches, declare, declared_caches, memoised
from rules.engine.dice import SeededDice


def test_a_full_cache_forgets_its_older_half_before_adding():
    cache: BoundedCache[int, str] = BoundedCache(4)
    for n in range(4):
        assert cache.put(n, str(n)) == str(n)
    cache.put(4, "4")
    assert list(cache) == [2, 3, 4]
    for n in range(5, 40):
        cache.put(n, str(n))
        assert len(cache) <= 4
    assert 39 in cache


def test_a_memoised_function_computes_each_key_once():
    calls = []

    @memoised("test.squares", bound=2, depends_on="n")
    def square(n: int) -> int:
        calls.append(n)
        return n * n

    assert [square(3), square(3), square(4), square(3)] == [9, 9, 16, 9]
    assert calls == [3, 4]
    clear_caches("test.squares")
    assert square(3) == 9 and calls == [3, 4, 3]
    with pytest.raises(TypeError):
        square(n=3)


def test_every_cache_is_declared_once_with_what_it_depends_on_and_a_bound():
    declared = declared_caches()
    names = [d.name for d in declared]
    assert len(names) == len(set(names))
    assert {"reach.fields", "los.layout_lines", "plans.shot_score", "movement.open_steps"} <= set(
        names
    )
    for d in declared:
        assert d.depends_on and d.bound > 0, d.name
    with pytest.raises(ValueError):
        declare("reach.fields", bound=1, depends_on="twice")


def test_clearing_empties_every_declared_cache():
    resolve_alien_turn(reference_state(), policy_named("bob"), SeededDice(seed=1))
    assert any(d.cache for d in declared_caches())
    clear_caches()
    assert not any(d.cache for d in declared_caches())


def test_the_engine_doc_lists_every_declared_cache():
    """``docs/engine.md``'s table of caches names exactly the declared caches."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text("utf-8")
    section = doc.split("## Caches", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([a-z_.]+)` \|", section, flags=re.MULTILINE))
    declared = {d.name for d in declared_caches() if not d.name.startswith("test.")}
    assert listed == declared
