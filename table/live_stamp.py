"""A game's stamp: what every open view of a game polls to know when to refresh.

It is the number of the game's latest step and the state of its latest Alien turn request,
so a move, an undo, a requested turn and a resolved (or failed) turn each change it. Two
indexed queries, no state decoded: a projector may ask every few seconds.
"""

from __future__ import annotations

from django.db.models import Max

from table.models import AlienTurnRequest, Game


def game_stamp(session_pk: int, number: int) -> dict[str, object] | None:
    """``{"stamp", "step", "turn"}`` of game ``number`` of session ``session_pk``, or None
    if there is no such game. ``turn`` is the latest Alien turn request's status ("" if
    none was made)."""
    found = (
        Game.objects.filter(session_id=session_pk, number=number)
        .annotate(step=Max("snapshots__number"))
        .values_list("pk", "step")
        .first()
    )
    if found is None:
        return None
    game_pk, step = found
    turn = (
        AlienTurnRequest.objects.filter(game_id=game_pk)
        .order_by("-created_at")
        .values_list("pk", "status")
        .first()
    )
    turn_status = turn[1] if turn else ""
    stamp = f"{step or 0}:{turn[0] if turn else '-'}:{turn_status}"
    return {"stamp": stamp, "step": step or 0, "turn": turn_status}
