"""Python's cyclic garbage collector paused around batches of Alien turns, for callers
that opt in (the Alien-turn benchmark, Monte Carlo runs).

The engine itself never touches the collector: it runs inside the web process, whose
collector is the process's business. A caller resolving many turns in a row may pause it
turn by turn with :func:`cycle_collector_paused`.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector inside the block.

    A turn makes and drops a great many small containers (states, tuples, plans) but no
    reference cycles, so reference counting frees everything it throws away (checked in
    ``tests/engine/test_fast_paths.py``). The cyclic collector, which would otherwise
    run every few hundred allocations and now and then walk every object the engine's
    memos keep, could find nothing to free: it only costs time. It runs as usual after
    the block.

    Re-enabled as it is, the collector would at once walk every container the block left
    alive (a turn's log, its new state, the memos' new entries), to find no cycle there
    either. So those are moved to the oldest generation unexamined, with ``gc.freeze``
    and ``gc.unfreeze`` (only when nothing else froze objects, whose freeze that would
    undo): they are walked again only by a full collection, which still frees any cycle
    among them, as it does among the objects that were young when the block began."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
