"""Why the engine refuses a move, an attack or a line of sight, translatable without Django.

Engine errors (:class:`rules.engine.movement.MoveError`, :class:`rules.engine.combat.
CombatError`, :class:`rules.engine.los.SightError`) are :class:`CodedError`: they carry a
message *code* and JSON-ready *params*, and their ``str()`` is the English text (the CLI
and bug reports). The judge's board page shows :meth:`CodedError.text_in` in the page's
language. Params follow :mod:`rules.engine.narration_combat` (squares written ``x,y``,
``weapon`` a weapon key, ``weapons`` a list of them, ``door_state`` a door's state).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.narration_cards import CARD_ERRORS
from rules.engine.narration_combat import fill, pick
from rules.engine.narration_turns import TURN_ERRORS

ERRORS: dict[str, dict[str, str]] = {
    # --- the event deck --------------------------------------------------------------------
    "unknown_event_cards": {
        "it": "Carte evento sconosciute nella stipulazione: {cards}",
        "en": "unknown event cards in the stipulation: {cards}",
    },
    "event_card_not_in_deck": {
        "it": "La carta Evento Alieno {card} non è nel mazzo ora (già pescata, esclusa "
        "dalla stipulazione, o in questa sessione non si pescano carte evento): scegli una "
        "carta del mazzo",
        "en": "the Alien event card {card} is not in the deck now (drawn already, left out "
        "by the stipulation, or this session draws no event cards): choose a card of the deck",
    },
    # --- any figure ------------------------------------------------------------------------
    "no_figure": {
        "it": "Nessuna figura '{figure}' in gioco",
        "en": "no figure '{figure}' in this state",
    },
    # --- movement --------------------------------------------------------------------------
    "move_inside_vehicle": {
        "it": "La figura {figure} è dentro un veicolo e non può muovere da sola",
        "en": "figure {figure} is inside a vehicle and cannot move by itself",
    },
    "move_tarantula": {
        "it": "La figura {figure} è una Tarantola: muove in linea con il suo cannoniere; "
        "indica la casella dove arriva il suo fronte e dove è rivolta",
        "en": "figure {figure} is a Tarantula: it moves in one line with its gunner; name "
        "the square its front ends on and the way it faces",
    },
    "not_a_tarantula": {
        "it": "La figura {figure} non è una Tarantola",
        "en": "figure {figure} is not a Tarantula",
    },
    "tarantula_uncrewed": {
        "it": "La Tarantola {figure} non ha un cannoniere: muove solo se un marine la manovra",
        "en": "Tarantula {figure} has no gunner: it moves only while a marine crews it",
    },
    "tarantula_gunner_misplaced": {
        "it": "Il cannoniere {gunner} non è nella casella dietro la Tarantola {figure}: "
        "correggi la posizione prima di muoverla",
        "en": "gunner {gunner} is not on the square behind Tarantula {figure}: correct the "
        "position before moving it",
    },
    "tarantula_no_manoeuvre": {
        "it": "La Tarantola {figure} non può finire con il fronte su {square} rivolta a "
        "{facing} entro {allowance} caselle: muri, porte stagne rinforzate, Alieni, segnalini "
        "Blip o figure sulle sue tre caselle finali lo impediscono",
        "en": "Tarantula {figure} cannot end with its front on {square} facing {facing} "
        "within {allowance} squares: walls, bulkheads, aliens, blips or figures on its three "
        "final squares are in the way",
    },
    "tarantula_already_there": {
        "it": "La Tarantola {figure} è già lì, rivolta da quella parte",
        "en": "Tarantula {figure} already stands there, facing that way",
    },
    "off_board": {
        "it": "La casella {square} è fuori dal tabellone",
        "en": "square {square} is outside the board",
    },
    "too_long": {
        "it": "La figura {figure} può muovere di {allowance} caselle, il percorso ne ha {steps}",
        "en": "figure {figure} may move {allowance} squares, the path has {steps}",
    },
    "step_off_board": {
        "it": "Passo {step}: la casella {square} è fuori dal tabellone",
        "en": "step {step}: square {square} is outside the board",
    },
    "step_blocked": {
        "it": "Passo {step}: {figure} non può passare da {a} a {b} (caselle non vicine, oppure "
        "c'è di mezzo un muro, una porta stagna rinforzata, una casella piena o un angolo "
        "bloccato)",
        "en": "step {step}: {figure} cannot step from {a} to {b} (not a neighbour, or a wall, "
        "bulkhead, solid square or blocked corner is in the way)",
    },
    "step_occupied": {
        "it": "Passo {step}: {figure} non può attraversare {square} (c'è una figura che non "
        "può attraversare, un segnalino Blip, o un attracco chiuso agli Alieni)",
        "en": "step {step}: {figure} cannot pass {square} (occupied by a figure it may not "
        "pass, a blip, or a docking claw closed to aliens)",
    },
    "section_stop": {
        "it": "Passo {step}: {figure} entra nel tabellone {section} in {square} e deve fermarsi "
        "lì, ma non può fermarsi su quella casella",
        "en": "step {step}: {figure} enters section {section} at {square} and must stop there, "
        "but cannot stop on it",
    },
    "end_occupied": {
        "it": "{figure} non può terminare il movimento in {square}: la casella è occupata, "
        "contiene un segnalino Blip, oppure (Dreadnought) avrebbe una porta sotto la base",
        "en": "{figure} cannot end its move at {square}: the square is occupied, holds a blip, "
        "or (Dreadnought) a door would be under its base",
    },
    "aliens_only": {
        "it": "follow_path muove solo gli Alieni; {figure} non è un Alieno",
        "en": "follow_path moves aliens only; {figure} is not an alien",
    },
    "no_door": {
        "it": "Non c'è nessuna porta tra {a} e {b}",
        "en": "there is no door between {a} and {b}",
    },
    "door_not_closed": {
        "it": "La porta tra {a} e {b} è {door_state}, non chiusa",
        "en": "the door between {a} and {b} is {door_state}, not closed",
    },
    "not_at_door": {
        "it": "{figure} deve stare davanti alla porta tra {a} e {b} (regola: una figura apre "
        "una porta chiusa stando su una delle due caselle davanti)",
        "en": "{figure} must stand in front of the door between {a} and {b} (rule: a figure "
        "opens a closed door standing on either square in front of it)",
    },
    # --- line of sight ---------------------------------------------------------------------
    "sight_off_board": {
        "it": "La casella {square} è fuori dal tabellone di {width}x{height} caselle",
        "en": "square {square} is outside the {width}x{height} board",
    },
    "viewer_inside": {
        "it": "La figura {figure} è dentro un veicolo e guarda attraverso di esso",
        "en": "figure {figure} is inside a vehicle and sees through it",
    },
    "target_inside": {
        "it": "La figura {figure} è dentro un veicolo: guarda il veicolo",
        "en": "figure {figure} is inside a vehicle: look at the vehicle",
    },
    # --- combat ----------------------------------------------------------------------------
    "tarantula_fixed": {
        "it": "{figure} è una Tarantola: spara da dove si trova",
        "en": "{figure} is a Tarantula: it fires from where it stands",
    },
    "attack_square_taken": {
        "it": "{figure} non può attaccare da {square}: la casella {blocked} non è libera",
        "en": "{figure} cannot attack from {square}: square {blocked} is not free",
    },
    "attack_inside_vehicle": {
        "it": "{figure} è dentro un veicolo: attacca con il veicolo",
        "en": "{figure} is inside a vehicle: attack with the vehicle",
    },
    "attacker_gone": {
        "it": "{figure} non è più sul tabellone",
        "en": "{figure} is no longer on the board",
    },
    "attacker_moved": {
        "it": "{figure} occupa {squares} ma l'attacco era stato calcolato per un'altra "
        "posizione: muovilo prima",
        "en": "{figure} stands on {squares} but the option was computed for another position: "
        "move it first",
    },
    "fight_target_gone": {
        "it": "L'avversario in corpo a corpo non è più sul tabellone",
        "en": "the hand-to-hand target is no longer on the board",
    },
    "no_bulkhead": {
        "it": "Lì non c'è più una porta stagna rinforzata in piedi",
        "en": "there is no standing bulkhead door there any more",
    },
    "target_gone": {
        "it": "Il bersaglio non è più sul tabellone",
        "en": "the target is no longer on the board",
    },
    "beam_no_line": {
        "it": "Il raggio non ha caselle da percorrere",
        "en": "the beam has no square to travel along",
    },
    "split_points": {
        "it": "Assegna da 1 a {remaining} punti (il totale rimasto), non {points}",
        "en": "assign between 1 and {remaining} points (the total left), not {points}",
    },
    "split_not_eligible": {
        "it": "{target} non è un nemico visibile per {figure}; bersagli possibili: {eligible}",
        "en": "{target} is not a visible enemy of {figure}; eligible: {eligible}",
    },
    "not_split_weapon": {
        "it": "L'arma {weapon} non ripartisce il suo totale",
        "en": "the {weapon} does not split its total",
    },
    "not_straight": {
        "it": "{square} non è su una linea retta ortogonale o diagonale da {origin}",
        "en": "{square} is not on a straight orthogonal or diagonal line from {origin}",
    },
    "fight_needs_target": {
        "it": "Il corpo a corpo richiede come bersaglio l'id di una figura sul tabellone",
        "en": "hand-to-hand needs the id of a figure on the board as target",
    },
    "cannot_fight": {
        "it": "{figure} non può combattere in corpo a corpo con {target}: deve essere un nemico "
        "su una casella adiacente in orizzontale o verticale, senza muri o porte chiuse in "
        "mezzo",
        "en": "{figure} cannot fight {target} hand-to-hand: it must be an enemy on an "
        "orthogonally adjacent square with no wall or closed door between",
    },
    "no_such_weapon": {
        "it": "{figure} non ha l'arma {weapon}; ha: {weapons}",
        "en": "{figure} does not carry a {weapon}; it has: {weapons}",
    },
    "cannot_shoot_now": {
        "it": "{figure} ora non può sparare (accucciato sotto una porta, o senza equipaggio)",
        "en": "{figure} cannot shoot now (crouched in a door, or uncrewed)",
    },
    "needs_target": {
        "it": "L'arma {weapon} richiede una figura bersaglio",
        "en": "the {weapon} needs a target figure",
    },
    "cannot_see_enemy": {
        "it": "{figure} non vede un nemico {target} a cui sparare",
        "en": "{figure} cannot see an enemy {target} to shoot at",
    },
    "sees_no_enemy": {
        "it": "{figure} non vede nessun nemico per l'arma {weapon}",
        "en": "{figure} sees no enemy for the {weapon}",
    },
    "not_own_square": {
        "it": "{square} non è una delle caselle di {figure}",
        "en": "{square} is not one of {figure}'s squares",
    },
    "needs_direction": {
        "it": "L'arma {weapon} richiede una direzione o una casella sulla linea",
        "en": "the {weapon} needs a direction or a square on the line",
    },
    "line_hits_nothing": {
        "it": "L'arma {weapon} sparata da {origin} {direction} non colpisce nessun nemico",
        "en": "the {weapon} fired from {origin} {direction} hits no enemy",
    },
    "needs_square": {
        "it": "L'arma {weapon} richiede una casella bersaglio",
        "en": "the {weapon} needs a target square",
    },
    "untargetable": {
        "it": "Non si può mirare alla casella {square}",
        "en": "{square} cannot be targeted",
    },
    "cannot_see_square": {
        "it": "{figure} non vede la casella {square}",
        "en": "{figure} cannot see square {square}",
    },
    "needs_areas": {
        "it": "L'arma {weapon} richiede le aree (casella in alto a sinistra, colpi)",
        "en": "the {weapon} needs areas (top-left square, shots)",
    },
    "too_many_shots": {
        "it": "L'arma {weapon} ha {shots} colpi: assegnane almeno uno a ogni area e non più di "
        "questi in tutto",
        "en": "the {weapon} has {shots} shots: give each area at least one and no more than "
        "that in all",
    },
    "cannot_shoot": {
        "it": "L'arma {weapon} non può sparare",
        "en": "the {weapon} cannot shoot",
    },
    **TURN_ERRORS,
    **CARD_ERRORS,
}

#: Templates for a count of exactly one: code -> (the counting param, {lang: template}).
SINGULAR: dict[str, tuple[str, dict[str, str]]] = {
    "turn_move_too_far": (
        "steps",
        {
            "it": "{figure} ha già usato {moved} delle sue {allowance} caselle in questo "
            "movimento: un'altra casella è di troppo (regola: si muove al massimo del proprio "
            "movimento)",
            "en": "{figure} has used {moved} of its {allowance} squares in this move: 1 more "
            "is too far (rule: a figure moves at most its movement)",
        },
    ),
    "too_long": (
        "allowance",
        {
            "it": "La figura {figure} può muovere di 1 casella, il percorso ne ha {steps}",
            "en": "figure {figure} may move 1 square, the path has {steps}",
        },
    ),
    "split_points": (
        "remaining",
        {
            "it": "Assegna 1 punto (il totale rimasto), non {points}",
            "en": "assign 1 point (the total left), not {points}",
        },
    ),
    "too_many_shots": (
        "shots",
        {
            "it": "L'arma {weapon} ha 1 colpo: assegnalo a una sola area",
            "en": "the {weapon} has 1 shot: give it to one area",
        },
    ),
}


def error_text(code: str, params: Mapping[str, Any], lang: str) -> str:
    """The message of an engine error in ``lang`` ("it" or "en")."""
    return fill(pick(ERRORS, SINGULAR, code, params, lang), params, lang)


class CodedError(ValueError):
    """An engine error with a message code and params; ``str()`` is the English text.

    ``CodedError("no_door", a=[1, 0], b=[2, 0])`` names a code of :data:`ERRORS`; a first
    argument that is not a code is free text (a caller's own, already translated message),
    with ``code`` None."""

    def __init__(self, code: str, /, **params: Any) -> None:
        if code in ERRORS:
            self.code: str | None = code
            self.params: dict[str, Any] = params
            super().__init__(error_text(code, params, "en"))
        else:
            self.code = None
            self.params = {}
            super().__init__(code)

    def text_in(self, lang: str) -> str:
        """The message in ``lang``; free text is shown as it is."""
        return error_text(self.code, self.params, lang) if self.code else str(self)
