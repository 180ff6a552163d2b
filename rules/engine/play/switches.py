"""Session progress the state keeps in its stipulation switches.

The state format has no dedicated fields for the event cards already drawn or for the
Genestealer markers already used, so the Alien AI keeps them as switches (plain JSON
lists that round-trip through ``GameState.to_json``):

* ``events_drawn``: ids of the event cards drawn so far this session;
* ``genestealers_appeared``: marker squares (``"x,y"``) whose Genestealer came out.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from rules.engine.state import GameState

EVENTS_DRAWN = "events_drawn"
GENESTEALERS_APPEARED = "genestealers_appeared"


def switch_list(state: GameState, key: str) -> list:
    value = state.stipulation.switches.get(key)
    return list(value) if isinstance(value, list | tuple) else []


def with_switch(state: GameState, key: str, value: object) -> GameState:
    switches = dict(state.stipulation.switches)
    switches[key] = value
    return state.replace(
        stipulation=replace(state.stipulation, switches=MappingProxyType(switches))
    )
