"""A player who forfeits a session leaves play on its board (decision 34): every figure of
theirs is taken off each game of the session, as one judge's-edit step the judge can undo."""

from __future__ import annotations

import logging

from django.utils.translation import gettext as _

from table.actions import GameError, remove_player_figures
from table.models import Game
from table.seating import game_player_id
from tournaments.models import Seat

logger = logging.getLogger(__name__)


def take_figures_off(sender, *, seat: Seat, actor, **_kwargs) -> None:
    """Receiver of :data:`tournaments.actions.seat_events.seat_forfeited`."""
    reason = _("%(name)s forfeited the session (%(forfeit)s).") % {
        "name": seat.player.display_name,
        "forfeit": seat.get_forfeit_display(),
    }
    for game in Game.objects.filter(session_id=seat.session_id):
        latest = game.latest()
        if latest is None:
            continue
        try:
            remove_player_figures(
                game, game_player_id(seat), reason, expected_number=latest.number, actor=actor
            )
        except GameError as error:  # a step saved meanwhile: the judge removes them by hand
            logger.warning("figures of seat %s left on game %s: %s", seat.pk, game.pk, error)
