"""What a session plays by: its own stipulation and score thresholds, else its stage's
(RULES §6, §9). The rules for changing them are in :mod:`tournaments.actions.session_settings`.
"""

from __future__ import annotations

from collections import Counter
from copy import deepcopy
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from rules.engine.catalogue_classes import with_catalogue_classes
from rules.engine.state import Stipulation as EngineStipulation
from tournaments.domain.catalogue import DEFAULT_WEAPONS
from tournaments.domain.map_fit import (
    CATCH_THE_FLAG,
    MOST_SQUADS,
    MapMisfit,
    flags_placed,
    map_misfit,
)
from tournaments.domain.plausibility import (
    Fielded,
    SessionLimits,
    fielded_by_seat,
    session_limits,
    squad_figures,
)
from tournaments.models import (
    Loadout,
    ScoreThreshold,
    Seat,
    Session,
    Stage,
    Stipulation,
    Tournament,
    clean_stipulation_params,
    playing_rules,
)
from tournaments.queries.playable_maps import flag_maps, map_board, map_label
from tournaments.queries.tournament_catalogue import catalogue_weapon_classes


def own_map_name(session: Session) -> str:
    """The map ``session`` chose for itself, "" when it plays its stage's. A session seated
    with its stage's map (``stage_advance``) plays the stage's: a new stage map reaches it
    (``tournament_setup.save_stage``), so it counts as none of its own."""
    name = session.map_name
    return "" if name == session.stage.map_name else name


def session_map_name(session: Session) -> str:
    """The map ``session`` plays: its own, else its stage's; "" for none, which a session
    played without a map keeps when its stage gets one (``without_map``, decision 54)."""
    if session.without_map:
        return ""
    return session.map_name or session.stage.map_name


def stipulation_kind(session: Session) -> str:
    """The session's stipulation type: its own, else its stage's; empty when neither has one."""
    stipulation = getattr(session, "stipulation", None)
    if stipulation is not None:
        return stipulation.kind
    return session.stage.stipulation_kind or ""


def stipulation_params(session: Session) -> dict:
    """The session's stipulation parameters as stored: its own, else its stage's (a
    stage's without its defaults filled in, :func:`stage_stipulation_params`)."""
    stipulation = getattr(session, "stipulation", None)
    params = stipulation.params if stipulation is not None else session.stage.stipulation_params
    return params or {}


def no_stipulation_message(session: Session) -> str:
    """What to tell a judge entering the result of a session without a stipulation."""
    return _("Session %(session)s has no stipulation; set one before entering its result.") % {
        "session": session
    }


@dataclass(frozen=True)
class StageDefaults:
    """What the stage gives a session that has no setting of its own."""

    kind: str
    params: dict = field(default_factory=dict)
    thresholds: tuple[int, ...] = ()


def stage_stipulation_params(stage: Stage) -> dict:
    """The stage's stipulation parameters with their defaults filled in, as a session's own
    stipulation stores them (as stored when they are not valid); a new dict."""
    params = deepcopy(stage.stipulation_params or {})
    if stage.stipulation_kind:
        try:
            params = clean_stipulation_params(
                stage.stipulation_kind, params, playing_rules(stage.tournament)
            )
        except ValidationError:
            pass
    return params


def stage_defaults(session: Session) -> StageDefaults:
    """The stage's settings (:func:`stage_stipulation_params`, its score thresholds)."""
    stage = session.stage
    return StageDefaults(
        kind=stage.stipulation_kind,
        params=stage_stipulation_params(stage),
        thresholds=tuple(stage.thresholds.order_by("points").values_list("points", flat=True)),
    )


def plays_aliens(session: Session) -> bool:
    """Whether the session's games have aliens (RULES §6: Catch the Flag and TPK may be
    played without), by its stipulation, else its stage's; an Alien Hunt always has."""
    stipulation = EngineStipulation(stipulation_kind(session), dict(stipulation_params(session)))
    return stipulation.with_aliens


def own_stipulation(session: Session) -> Stipulation | None:
    return Stipulation.objects.filter(session=session).first()


def own_thresholds(session: Session) -> list[ScoreThreshold]:
    return list(ScoreThreshold.objects.filter(session=session).order_by("points"))


def fielded_squads(session: Session, figures: int) -> dict[str, Fielded]:
    """What each squad of ``session`` fielded, by player id as text (the result's seat
    key), read from the seats' loadouts and the class the tournament's catalogue gives
    each weapon (the default catalogue's when it has none of its own). A seat without a
    loadout, or whose loadout does not arm each of its ``figures - 1`` marines with a known
    weapon, is left out: what it fielded is not known. Two queries."""
    classes = dict(session.stage.tournament.weapons.values_list("slug", "weapon_class")) or {
        weapon.slug: weapon.weapon_class.value for weapon in DEFAULT_WEAPONS
    }
    rows = Loadout.objects.filter(seat__in=Seat.objects.filter(session=session)).values_list(
        "seat__player_id", "marine_weapons", "extra_marine_weapons"
    )
    loadouts = {str(player): [*(marines or ()), *(extra or ())] for player, marines, extra in rows}
    return fielded_by_seat(loadouts, classes, figures)


def result_limits(session: Session) -> SessionLimits:
    """What a result of ``session`` may hold (:mod:`tournaments.domain.plausibility`): from
    its stipulation (its own, else its stage's), its map, the tournament's rules data, the
    seats' loadouts (what each squad fielded), the tokens its games on the judge's board
    revealed and the seats' forfeits."""
    stipulation = getattr(session, "stipulation", None)
    if stipulation is not None:
        kind, params = stipulation.kind, stipulation.params
    else:
        kind, params = session.stage.stipulation_kind, session.stage.stipulation_params
    tournament = session.stage.tournament
    map_name = session_map_name(session)
    overrides = tournament.data_overrides or {}
    return session_limits(
        kind,
        params,
        map_name,
        with_catalogue_classes(overrides, catalogue_weapon_classes(tournament)),
        map_board(tournament, map_name),
        fielded_squads(session, squad_figures(kind or "")),
        board_tokens(session),
        forfeits={
            str(player): forfeit
            for player, forfeit in session.seats.exclude(forfeit="").values_list(
                "player_id", "forfeit"
            )
        },
    )


def board_tokens(session: Session) -> dict[str, int] | None:
    """The tokens of each alien type the session's games on the judge's board revealed
    (blips and reinforcement tokens, taken or not), the most of any one game, as each game
    stands now (None: no game was played on the board). Read from each game's latest
    stored state, its tokens only."""
    games = list(session.games.all())
    if not games:
        return None
    revealed: Counter[str] = Counter()
    for game in games:
        tokens = game.snapshots.order_by("-number").values_list("state__tokens", flat=True)
        revealed |= Counter(
            str(token.get("alien", "")) for token in tokens.first() or () if isinstance(token, dict)
        )
    return dict(revealed)


def stipulation_map_misfit(
    tournament: Tournament, kind: str, params: dict, name: str, squads: int = MOST_SQUADS
) -> MapMisfit | None:
    """What is wrong with playing stipulation ``kind`` (its ``params``) on the map ``name``
    for ``squads`` squads (:mod:`tournaments.domain.map_fit`); a refusal names the
    tournament's maps that would fit. None when they fit, and when no map is chosen or it
    is not one the tournament can play (nothing to check it against)."""
    board = map_board(tournament, name) if kind else None
    if board is None:
        return None
    needed = flags_placed(params, squads)
    short_of_flags = kind == CATCH_THE_FLAG and len(board.flag_spots) < needed
    suited = flag_maps(tournament, needed) if short_of_flags else ()
    return map_misfit(kind, params, board, map_label(name, board), squads=squads, suited=suited)


def session_squads(session: Session) -> int:
    """The squads ``session`` seats (three until it is seated, RULES §2)."""
    return session.seats.count() or MOST_SQUADS
