"""The engine's memos kept between calls: one bounded dict, one way of forgetting, one list.

Every table the engine keeps from one call to the next (distance fields, sight lines,
odds, data read from files...) is a :class:`BoundedCache`: a dict that holds at most
``bound`` entries and, when an entry is added to a full one, first forgets its older half
(in the order the entries were added). A long Monte Carlo run therefore keeps meeting
new positions without growing, and forgets what it met longest ago.

A module-level cache is made with :func:`declare` (or :func:`memoised` for a function of
hashable arguments), which lists it with its name, what its entries depend on and its
bound: :func:`declared_caches` is that list (``docs/engine.md`` shows it as a table, a
test keeps the two alike) and :func:`clear_caches` empties every cache in it, for
cold-start measurements and tests. Tables kept inside an entry of a declared cache are
plain :class:`BoundedCache` objects (or plain dicts when their keys are bounded by the
board anyway): they go when their entry goes.

Nothing here may change an answer: an entry is only ever the value its key gives, so a
cache that forgets, or is never filled, makes the engine slower, never different.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from itertools import islice
from typing import Any, ParamSpec, TypeVar, cast

K = TypeVar("K")
V = TypeVar("V")
P = ParamSpec("P")
R = TypeVar("R")


class BoundedCache(dict[K, V]):
    """A dict of at most ``bound`` entries; :meth:`put` makes room by forgetting the older
    half. Reads are a dict's own (``get``, ``in``, ``[]``), as fast as a plain dict's."""

    __slots__ = ("bound",)

    def __init__(self, bound: int) -> None:
        super().__init__()
        self.bound = bound

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` (forgetting the older half first when full) and
        return it."""
        if len(self) >= self.bound:
            for old in list(islice(self, (len(self) + 1) // 2)):
                del self[old]
        self[key] = value
        return value


@dataclass(frozen=True)
class DeclaredCache:
    """A module-level cache as :func:`declared_caches` lists it."""

    name: str
    depends_on: str
    cache: BoundedCache[Any, Any]

    @property
    def bound(self) -> int:
        return self.cache.bound


_DECLARED: dict[str, DeclaredCache] = {}


def declare(name: str, *, bound: int, depends_on: str) -> BoundedCache[Any, Any]:
    """A new module-level cache, listed under ``name`` (``module.table``) with what its
    entries depend on and its bound."""
    if name in _DECLARED:
        raise ValueError(f"a cache named {name!r} is declared already")
    cache: BoundedCache[Any, Any] = BoundedCache(bound)
    _DECLARED[name] = DeclaredCache(name, depends_on, cache)
    return cache


def memoised(
    name: str, *, bound: int, depends_on: str
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Keep the results of a function of hashable positional arguments in a declared
    cache (the arguments, as a tuple, are the key; keyword arguments are refused).

    Equal keys share a result: arguments such as ``True`` and ``1``, equal but of
    different types, would too, so such a function must not be memoised this way."""

    def decorate(compute: Callable[P, R]) -> Callable[P, R]:
        cache = declare(name, bound=bound, depends_on=depends_on)
        missing = object()

        @wraps(compute)
        def memo(*args: Any) -> Any:
            found = cache.get(args, missing)
            if found is missing:
                found = cache.put(args, compute(*args))  # type: ignore[call-arg]
            return found

        return cast(Callable[P, R], memo)

    return decorate


def declared_caches() -> list[DeclaredCache]:
    """Every declared cache, in the order the engine's modules declared them."""
    return list(_DECLARED.values())


def clear_caches(prefix: str = "") -> None:
    """Empty every declared cache whose name starts with ``prefix`` (all by default; e.g.
    ``"odds."`` for one module's), and with them the tables kept in their entries."""
    for declared in _DECLARED.values():
        if declared.name.startswith(prefix):
            declared.cache.clear()
