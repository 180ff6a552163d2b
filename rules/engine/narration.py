"""The judge's step log, translatable without Django.

The engine never stores sentences: every step is a message *code* plus JSON-ready
*params*, so one log can be rendered in Italian at the table and in English in a bug
report. Templates live here, keyed by code, with an ``it`` and an ``en`` text each.

Params are formatted by name: ``square``/``from``/``to``/``a``/``b``/``target_square``
are squares shown as ``(x,y)``; ``path`` is a list of squares; ``unit`` is a unit key
shown with its translated name; ``weapon`` a weapon key; ``policy`` an Alien policy;
``criterion``, ``mode``, ``reason`` and ``kind`` (of dice) are codes with translated
phrases; ``direction`` is a step such as ``[1, 0]`` shown as words; ``card`` is an event
card id; ``chapter_card``, ``chapter_cards`` and a fixed card's ``{<code>_card}`` name
chapter cards as the chapter of the player or figure the text is about names them
(:func:`rules.engine.card_names.card_param`). Weapons and cards are named as the naming in
effect names them (:mod:`rules.engine.naming`), and so are the players (``player``, ``active``,
``players``, ``winners``, ``ranking``: ids, or the caller's names for them) and the
figures a caller draws with a label (``figure``, ``target``...: ``Or1 (ork-blip-1-1)``).
A float is shown with two decimals (a decimal comma in Italian). Anything else is shown
as is.

Dice purposes have their own table in :mod:`rules.engine.narration_dice` and the reasons
of a line of sight in :mod:`rules.engine.narration_sight`.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.card_names import card_param, event_card_name
from rules.engine.figure_names import UNIT_NAMES, weapon_name
from rules.engine.naming import Naming, current_naming
from rules.engine.narration_cards import CARD_MESSAGES
from rules.engine.narration_purposes import PURPOSES
from rules.engine.narration_turns import TURN_MESSAGES, turn_param
from rules.engine.units import load_rules_data

LANGUAGES = ("it", "en")

#: The Alien policies (:data:`rules.engine.ai.policies.POLICIES`) by name.
POLICY_NAMES: dict[str, dict[str, str]] = {
    "bob": {"it": "BoB", "en": "BoB"},
    "priority": {"it": "a priorità", "en": "priority"},
    "solitaire": {"it": "Solitario", "en": "Solitaire"},
}

#: Phrases for the ``criterion`` and ``mode`` params (why a choice was made).
PHRASES: dict[str, dict[str, str]] = {
    "type_order": {"it": "ordine per tipo", "en": "type order"},
    "only_one": {"it": "unico del suo tipo rimasto", "en": "the only one of its type left"},
    "attackable_focus": {
        "it": "il suo focus è attaccabile in questo turno",
        "en": "its focus can be attacked this turn",
    },
    "initiative": {
        "it": "focus più avanti nell'ordine di iniziativa",
        "en": "focus earlier in the initiative order",
    },
    "distance": {"it": "percorso più breve", "en": "shorter path"},
    "lowest_id": {
        "it": "parità: id più basso; il giocatore attaccato può cambiare l'ordine",
        "en": "tie: lowest id; the attacked player may reorder",
    },
    "move_only": {
        "it": "può solo muovere: prima i più vicini",
        "en": "can only move: nearest first",
    },
    "event_first": {"it": "carta evento", "en": "event card"},
    "event_again": {
        "it": "carta evento: seconda attivazione",
        "en": "event card: second activation",
    },
    "only_player": {"it": "unico giocatore possibile", "en": "the only possible player"},
    "only_target": {"it": "unico bersaglio possibile", "en": "the only possible target"},
    "lowest_target_id": {"it": "parità: id più basso", "en": "tie: lowest id"},
    "marines_in_play": {"it": "più Marine in gioco", "en": "more marines in play"},
    "commander_alive": {"it": "Comandante ancora in vita", "en": "commander still alive"},
    "focus_initiative": {
        "it": "primo nell'ordine di iniziativa",
        "en": "first in initiative order",
    },
    "no_path": {"it": "nessun giocatore raggiungibile", "en": "no player can be reached"},
    "nearest": {"it": "il più vicino", "en": "the nearest"},
    "random": {"it": "sorteggio", "en": "random draw"},
    "slowest": {"it": "il più lento", "en": "the slowest"},
    "close": {"it": "corpo a corpo", "en": "close combat"},
    "shoot": {"it": "fuoco", "en": "shooting"},
    "can_damage": {
        "it": "può essere danneggiato in questo turno",
        "en": "can be damaged this turn",
    },
    "can_kill": {"it": "può essere ucciso in questo turno", "en": "can be killed this turn"},
    "fewest_life_points": {"it": "meno punti vita", "en": "fewest life points"},
    "firepower": {"it": "maggiore potenza di fuoco", "en": "highest firepower"},
    "white": {"it": "bianchi", "en": "white"},
    "red": {"it": "rossi", "en": "red"},
    "d6": {"it": "d6", "en": "d6"},
    "d3": {"it": "d3", "en": "d3"},
    "d12": {"it": "d12", "en": "d12"},
    "focus_fire": {
        "it": "concentra il fuoco sul bersaglio in vita",
        "en": "keeps firing at the living target",
    },
    "outside": {
        "it": "fuori dal tabellone o casella piena",
        "en": "outside the section or a solid square",
    },
    "occupied": {"it": "casella occupata", "en": "occupied"},
    "in_sight": {"it": "in linea di vista di un Marine", "en": "in a marine's line of sight"},
}

#: Words for the ``direction`` param (``(0, 0)`` is the top-left square).
DIRECTION_NAMES: dict[tuple[int, int], dict[str, str]] = {
    (0, -1): {"it": "verso l'alto", "en": "upwards"},
    (1, 0): {"it": "verso destra", "en": "to the right"},
    (0, 1): {"it": "verso il basso", "en": "downwards"},
    (-1, 0): {"it": "verso sinistra", "en": "to the left"},
    (1, -1): {"it": "in diagonale in alto a destra", "en": "diagonally up and to the right"},
    (1, 1): {"it": "in diagonale in basso a destra", "en": "diagonally down and to the right"},
    (-1, 1): {"it": "in diagonale in basso a sinistra", "en": "diagonally down and to the left"},
    (-1, -1): {"it": "in diagonale in alto a sinistra", "en": "diagonally up and to the left"},
}

MESSAGES: dict[str, dict[str, str]] = {
    "turn_start": {
        "it": "Turno alieno (round {round}), strategia {policy}.",
        "en": "Alien turn (round {round}), policy {policy}.",
    },
    "turn_end": {"it": "Fine del turno alieno.", "en": "End of the Alien turn."},
    "no_aliens": {
        "it": "Nessun Alieno rivelato sul tabellone.",
        "en": "No revealed alien is on the board.",
    },
    "no_marines": {
        "it": "Nessun Marine in gioco: gli Alieni non agiscono.",
        "en": "No marine is in play: the Aliens do nothing.",
    },
    "event_drawn": {
        "it": "Carta Evento Alieno pescata: “{card}”.",
        "en": "Alien event card drawn: “{card}”.",
    },
    "event_deck_empty": {
        "it": "Il mazzo degli Eventi Alieni è vuoto: nessuna carta.",
        "en": "The alien event deck is empty: no card.",
    },
    "event_instruction": {
        "it": "Istruzione per il Giudice: {text}",
        "en": "Judge's instruction: {text}",
    },
    "event_target_player": {
        "it": "La carta colpisce il giocatore {player} (d6 = {roll}).",
        "en": "The card targets player {player} (d6 = {roll}).",
    },
    "event_target_reroll": {
        "it": "d6 = {roll}: nessun giocatore corrisponde, si ritira.",
        "en": "d6 = {roll}: no player matches, roll again.",
    },
    "event_no_target": {
        "it": "Nessun bersaglio possibile per la carta.",
        "en": "The card has no possible target.",
    },
    "event_cannot_move": {
        "it": "Effetto: le unità {units} non muovono in questo turno.",
        "en": "Effect: {units} units do not move this turn.",
    },
    "event_cannot_move_or_shoot": {
        "it": "Effetto: le unità {units} non muovono né sparano in questo turno.",
        "en": "Effect: {units} units neither move nor shoot this turn.",
    },
    "event_double_movement": {
        "it": "Effetto: le unità {units} muovono fino al doppio in questo turno e attaccano.",
        "en": "Effect: {units} units move up to double this turn and still attack.",
    },
    "event_cannot_act": {
        "it": "Effetto: le unità {units} non agiscono in questo turno.",
        "en": "Effect: {units} units do not act this turn.",
    },
    "event_extra_movement": {
        "it": "Effetto: ogni Alieno muove {squares} caselle in più.",
        "en": "Effect: every alien moves {squares} extra squares.",
    },
    "event_activate_first": {
        "it": "Effetto: {figure} ({unit}) si attiva per primo.",
        "en": "Effect: {figure} ({unit}) activates first.",
    },
    "event_swap": {
        "it": "Effetto: {figure} e {other} si scambiano di posto.",
        "en": "Effect: {figure} and {other} swap places.",
    },
    "event_alien_appears": {
        "it": "Effetto: {figure} ({unit}) compare in {square}, accanto a {target}, e agisce in "
        "questo turno.",
        "en": "Effect: {figure} ({unit}) appears on {square}, next to {target}, and acts this "
        "turn.",
    },
    "event_alien_no_room": {
        "it": "Nessun Marine o Comandante ha una casella libera accanto a sé: nessun {unit} "
        "compare e la carta non ha effetto.",
        "en": "No marine or commander has a free square next to it: no {unit} appears and the "
        "card has no effect.",
    },
    "event_door_closed": {
        "it": "Effetto: si chiude la porta tra {a} e {b}.",
        "en": "Effect: the door between {a} and {b} is closed.",
    },
    "event_special_weapon": {
        "it": "Effetto: il primo {units} in grado di colpire un Marine usa l'arma speciale "
        "({weapon}), mai dove colpirebbe altri Alieni.",
        "en": "Effect: the first {units} able to hit a marine uses the special weapon "
        "({weapon}), never where it would hit other aliens.",
    },
    "special_weapon_used": {
        "it": "{figure} usa l'arma speciale della carta evento: {weapon}.",
        "en": "{figure} uses the event card's special weapon: {weapon}.",
    },
    "special_weapon_blew_up": {
        "it": "L'arma speciale esplode: {figure} muore (nessun segnalino, nessun punto).",
        "en": "The special weapon blows up: {figure} dies (no token, no points).",
    },
    "special_weapon_unused": {
        "it": "Nessun {units} ha potuto colpire un Marine con l'arma speciale ({weapon}): "
        "la carta non ha effetto.",
        "en": "No {units} could hit a marine with the special weapon ({weapon}): the card "
        "has no effect.",
    },
    "event_self_destruct": {
        "it": "Effetto: il primo {units} in grado di coinvolgere un Marine nella sua esplosione "
        "va nella casella da cui ne coinvolge di più e si fa esplodere, mai dove l'esplosione "
        "colpirebbe altri Alieni.",
        "en": "Effect: the first {units} able to catch a marine in its blast moves to the "
        "square where the blast catches the most marines and blows itself up, never where "
        "the blast would hit other aliens.",
    },
    "self_destruct_chosen": {
        "it": "{figure} sceglie {square}, da cui la sua esplosione coinvolge più Marine: "
        "{targets} (punti attesi {points}, punti vita attesi {life_points}).",
        "en": "{figure} picks {square}, where its blast catches the most marines: {targets} "
        "(expected points {points}, expected life points {life_points}).",
    },
    "self_destruct_blast": {
        "it": "{figure} si fa esplodere in {square}: l'esplosione coinvolge {caught} figure, "
        "{targets}, e ognuna subisce {total} contro la propria armatura.",
        "en": "{figure} blows itself up on {square}: the blast catches {caught} figures, "
        "{targets}, each taking {total} against its own armour.",
    },
    "self_destruct_gone": {
        "it": "{figure} è distrutto dalla propria esplosione (nessun segnalino, nessun punto).",
        "en": "{figure} is destroyed by its own blast (no token, no points).",
    },
    "self_destruct_unused": {
        "it": "Nessun {units} ha potuto coinvolgere un Marine nella sua esplosione senza "
        "colpire altri Alieni: la carta non ha effetto.",
        "en": "No {units} could catch a marine in its blast without hitting other aliens: the "
        "card has no effect.",
    },
    "self_destruct_no_figure": {
        "it": "Sul tabellone non c'era nessun {units} per usare la carta: non ha effetto.",
        "en": "There was no {units} on the board to use the card: it has no effect.",
    },
    "activation": {
        "it": "Si attiva {figure} ({unit}): {criterion}.",
        "en": "{figure} ({unit}) activates: {criterion}.",
    },
    "focus": {
        "it": "{figure} punta il giocatore {player} (distanza {distance}): {criterion}.",
        "en": "{figure} focuses on player {player} (distance {distance}): {criterion}.",
    },
    "no_focus": {
        "it": "{figure} non può raggiungere nessun giocatore e resta fermo.",
        "en": "{figure} cannot reach any player and stays put.",
    },
    "held_by_event": {
        "it": "{figure} non muove per la carta evento.",
        "en": "{figure} does not move because of the event card.",
    },
    "skipped_by_event": {
        "it": "{figure} non agisce per la carta evento.",
        "en": "{figure} does not act because of the event card.",
    },
    "move": {
        "it": "{figure} muove da {from} a {to} lungo {path} ({steps} caselle).",
        "en": "{figure} moves from {from} to {to} along {path} ({steps} squares).",
    },
    "stay": {
        "it": "{figure} resta in {square}.",
        "en": "{figure} stays on {square}.",
    },
    "door_opened": {
        "it": "{figure} apre la porta tra {a} e {b}.",
        "en": "{figure} opens the door between {a} and {b}.",
    },
    "doorway_stop": {
        "it": "{figure} si ferma prima della porta: un Dreadnought non termina mai "
        "sotto una porta.",
        "en": "{figure} stops short of the door: a Dreadnought never ends its move under a door.",
    },
    "attack_chosen": {
        "it": "{figure} attacca {target} ({weapon}) da {square}: punti attesi {points}, "
        "punti vita attesi {life_points}.",
        "en": "{figure} attacks {target} with {weapon} from {square}: expected points {points}, "
        "expected life points {life_points}.",
    },
    "attack_alternative": {
        "it": "  scartato: {weapon} su {target} da {square} (punti {points}, punti vita "
        "{life_points}).",
        "en": "  passed over: {weapon} at {target} from {square} (points {points}, life points "
        "{life_points}).",
    },
    "area_choice": {
        "it": "Armi ad area: {figure} sceglie posizione e mira che colpiscono più Marine "
        "({marines} colpi su Marine in tutto).",
        "en": "Area weapons: {figure} picks the position and aims that hit the most marines "
        "({marines} marine hits in all).",
    },
    "doubtful_sight": {
        "it": "Linea di vista dubbia tra {a} e {b}: considerata libera; il Giudice può decidere "
        "con il dado.",
        "en": "Doubtful line of sight between {a} and {b}: taken as clear; the judge may settle "
        "it by the die.",
    },
    "dice": {
        "it": "Dadi tirati da {figure}: {kind} {values}.",
        "en": "Dice rolled by {figure}: {kind} {values}.",
    },
    "damage": {
        "it": "{target} perde {amount} punti vita (restano {left}).",
        "en": "{target} loses {amount} life points ({left} left).",
    },
    "no_damage": {"it": "{target} non subisce danni.", "en": "{target} takes no damage."},
    "shielded_target": {
        "it": "{target} è protetto dalla carta {blind_grenades_card}: non subisce danni.",
        "en": "{target} is shielded by {blind_grenades_card}: it takes no damage.",
    },
    "killed": {"it": "{target} è eliminato.", "en": "{target} is killed."},
    "weapon_lost": {
        "it": "{target} perde l'arma {weapon}.",
        "en": "{target} loses its {weapon}.",
    },
    "gunner_freed": {
        "it": "{target} non è più il Cannoniere: torna un Marine normale.",
        "en": "{target} is no longer the gunner: an ordinary marine again.",
    },
    # Free text of logs stored before every combat result had its own code.
    "combat_event": {"it": "{text}", "en": "{text}"},
    "score_lost": {
        "it": "Il giocatore {player} perde {points} punti ({target} eliminato).",
        "en": "Player {player} loses {points} points ({target} killed).",
    },
    "score_left_behind": {
        "it": "Il giocatore {player} perde {points} punti ({target} rimasto sul tabellone).",
        "en": "Player {player} loses {points} points ({target} left on the board).",
    },
    "score_gained": {
        "it": "Il giocatore {player} guadagna {points} punti ({target} eliminato).",
        "en": "Player {player} gains {points} points ({target} killed).",
    },
    "token_taken": {
        "it": "Il giocatore {player} prende un segnalino {unit} ({points} punti).",
        "en": "Player {player} takes one {unit} token ({points} points).",
    },
    "no_token": {
        "it": "Nessun segnalino {unit} libero: il giocatore {player} non guadagna punti.",
        "en": "No free {unit} token: player {player} scores nothing.",
    },
    "shot_aimed_again": {
        "it": "{figure} ha già ucciso chi era nel mirino di quest'arma ({weapon}): la punta di "
        "nuovo dove ora colpisce più Marine.",
        "en": "{figure} already killed what its {weapon} was aimed at: it aims it again where it "
        "now hits the most marines.",
    },
    "shot_dropped": {
        "it": "{figure} ha già ucciso chi era nel mirino di quest'arma ({weapon}) e con essa "
        "non può ferire nessun altro: non spara.",
        "en": "{figure} already killed what its {weapon} was aimed at, and with it can hurt "
        "nobody else: it does not fire.",
    },
    "areas_chosen_again": {
        "it": "{figure} ha visto il tiro: sceglie ora dove sparare i colpi rimasti di {weapon} "
        "({shots}), dove colpiscono più Marine.",
        "en": "{figure} has seen the roll: it now chooses where its {weapon} shots left "
        "({shots}) go, where they hit the most marines.",
    },
    "areas_held": {
        "it": "{figure} ha visto il tiro: con i colpi rimasti di {weapon} ({shots}) non può "
        "ferire nessuno, e non li spara.",
        "en": "{figure} has seen the roll: its {weapon} shots left ({shots}) can hurt nobody, "
        "and it does not fire them.",
    },
    "attack_unavailable": {
        "it": "{figure} non trova più l'attacco previsto: il Giudice verifichi la posizione.",
        "en": "{figure} no longer has the planned attack: the judge should check the position.",
    },
    "cannot_attack": {
        "it": "{figure} non può attaccare in questo turno: si avvicina al suo focus.",
        "en": "{figure} cannot attack this turn: it closes on its focus.",
    },
    "hide_move": {
        "it": "{figure} ha sparato senza muovere: si ripara in {square}.",
        "en": "{figure} fired without moving: it takes cover on {square}.",
    },
    "behaviour_roll": {
        "it": "{figure} tira d6 = {roll}: {mode}.",
        "en": "{figure} rolls d6 = {roll}: {mode}.",
    },
    "behaviour_fixed": {"it": "{figure}: {mode}.", "en": "{figure}: {mode}."},
    "target_choice": {
        "it": "{figure} sceglie {target}: {criterion}.",
        "en": "{figure} picks {target}: {criterion}.",
    },
    "survey": {
        "it": "Tabellone {section} sondato: {count} segnalini Blip.",
        "en": "Section {section} surveyed: {count} blips.",
    },
    "blip_placed": {
        "it": "Segnalino Blip piazzato in {square}.",
        "en": "Blip placed on {square}.",
    },
    "blip_placement_reroll": {
        "it": "d12 = {x},{y}: casella {square} non valida ({reason}), si ritira.",
        "en": "d12 = {x},{y}: square {square} is not usable ({reason}), roll again.",
    },
    "blip_no_room": {
        "it": "Nessuna casella libera per un Blip in {section}.",
        "en": "No free square for a blip in {section}.",
    },
    "blip_moves": {
        "it": "Il Blip {figure} muove da {from} a {to} lungo {path}.",
        "en": "Blip {figure} moves from {from} to {to} along {path}.",
    },
    "blip_revealed": {
        "it": "Blip in {square} rivelato: {unit}, {figure}.",
        "en": "Blip on {square} revealed: {unit}, {figure}.",
    },
    "blip_revealed_no_model": {
        "it": "Blip in {square} rivelato: {unit}, ma nessuna miniatura disponibile.",
        "en": "Blip on {square} revealed: {unit}, but no model is available.",
    },
    "blip_without_aliens": {
        "it": "Blip in {square} tolto dal tabellone: questa sessione si gioca senza Alieni.",
        "en": "Blip on {square} taken off the board: this session is played without aliens.",
    },
    "blip_equipment": {
        "it": "Blip in {square} rivelato: equipaggiamento speciale {item}.",
        "en": "Blip on {square} revealed: special equipment {item}.",
    },
    "genestealer_appears": {
        "it": "Un Ladro Genetico appare in {square}: {figure}.",
        "en": "A Genestealer appears on {square}: {figure}.",
    },
    "reinforcement_roll": {
        "it": "Rinforzi: d6 = {roll}.",
        "en": "Reinforcements: d6 = {roll}.",
    },
    "reinforcement_count": {
        "it": "Rinforzi: si pescano {count} segnalini.",
        "en": "Reinforcements: {count} tokens are drawn.",
    },
    "reinforcement_placed": {
        "it": "Rinforzo {unit}, {figure}, entra in {square}.",
        "en": "Reinforcement {unit}, {figure}, enters on {square}.",
    },
    "reinforcement_no_square": {
        "it": "Nessuna casella R libera e fuori vista: il rinforzo {unit} non entra.",
        "en": "No R square is free and out of sight: reinforcement {unit} does not enter.",
    },
    "reinforcement_none_left": {
        "it": "Nessun segnalino Rinforzo rimasto.",
        "en": "No reinforcement token is left.",
    },
    **TURN_MESSAGES,
    **CARD_MESSAGES,
}


@dataclass(frozen=True, init=False)
class Step:
    """One line of the judge's log: a message code and its JSON-ready params."""

    code: str
    params: Mapping[str, Any]

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        # A turn logs a couple of hundred steps: the fields are stored directly rather
        # than through the frozen dataclass's ``object.__setattr__`` for each.
        if code not in MESSAGES:
            raise KeyError(f"unknown narration code {code!r}")
        values = self.__dict__
        values["code"] = code
        values["params"] = {} if params is None else params

    def as_dict(self, lang: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "params": dict(self.params)}
        if lang is not None:
            data["text"] = render(self.code, self.params, lang)
        return data


#: Templates for a count of exactly one: code -> (the counting param, {lang: template}).
SINGULAR: dict[str, tuple[str, dict[str, str]]] = {
    "aliens_cleared": (
        "rounds",
        {
            "it": "Tutti gli Alieni sono morti: le squadre hanno 1 round per tornare agli "
            "artigli d'attracco (fino al round {last}).",
            "en": "Every alien is dead: the squads have 1 round to reach their claws "
            "(until round {last}).",
        },
    ),
    "self_destruct_blast": (
        "caught",
        {
            "it": "{figure} si fa esplodere in {square}: {targets} subisce {total} contro la "
            "propria armatura.",
            "en": "{figure} blows itself up on {square}: {targets} takes {total} against its "
            "armour.",
        },
    ),
    "move": (
        "steps",
        {
            "it": "{figure} muove da {from} a {to} lungo {path} (1 casella).",
            "en": "{figure} moves from {from} to {to} along {path} (1 square).",
        },
    ),
    "damage": (
        "amount",
        {
            "it": "{target} perde 1 punto vita (restano {left}).",
            "en": "{target} loses 1 life point ({left} left).",
        },
    ),
    "score_lost": (
        "points",
        {
            "it": "Il giocatore {player} perde 1 punto ({target} eliminato).",
            "en": "Player {player} loses 1 point ({target} killed).",
        },
    ),
    "score_left_behind": (
        "points",
        {
            "it": "Il giocatore {player} perde 1 punto ({target} rimasto sul tabellone).",
            "en": "Player {player} loses 1 point ({target} left on the board).",
        },
    ),
    "score_gained": (
        "points",
        {
            "it": "Il giocatore {player} guadagna 1 punto ({target} eliminato).",
            "en": "Player {player} gains 1 point ({target} killed).",
        },
    ),
    "token_taken": (
        "points",
        {
            "it": "Il giocatore {player} prende un segnalino {unit} (1 punto).",
            "en": "Player {player} takes one {unit} token (1 point).",
        },
    ),
    "survey": (
        "count",
        {
            "it": "Tabellone {section} sondato: 1 segnalino Blip.",
            "en": "Section {section} surveyed: 1 blip.",
        },
    ),
    "area_choice": (
        "marines",
        {
            "it": "Armi ad area: {figure} sceglie posizione e mira che colpiscono più Marine "
            "(1 colpo su un Marine in tutto).",
            # The English plural wording is kept: the behaviour hash pins it.
            "en": "Area weapons: {figure} picks the position and aims that hit the most marines "
            "({marines} marine hits in all).",
        },
    ),
    "reinforcement_count": (
        "count",
        {
            "it": "Rinforzi: si pesca 1 segnalino.",
            "en": "Reinforcements: 1 token is drawn.",
        },
    ),
}

_SQUARE_KEYS = frozenset({"square", "from", "to", "a", "b", "target_square"})
#: Params naming players by id (one, or a list); ``next``: whose turn follows.
_PLAYER_KEYS = frozenset({"player", "players", "active", "next", "winners", "ranking"})
#: Params naming figures by id (one, or a list).
_FIGURE_KEYS = frozenset(
    {"figure", "target", "targets", "attacker", "defender", "other", "vehicle", "pilot"}
)
#: The weapon patterns aimed along a line from the firer, at a step (``-1,0``).
_LINE_PATTERNS = frozenset({"line", "melta", "conversion"})


def decimal(value: float, places: int, lang: str) -> str:
    """``value`` with ``places`` decimals: a decimal comma in Italian."""
    shown = f"{value:.{places}f}"
    return shown.replace(".", ",") if lang == "it" else shown


def _format_square(value: Any) -> str:
    return current_naming().square_text(value)


def _translated(table: dict[str, dict[str, str]], key: Any, lang: str) -> str:
    entry = table.get(str(key))
    return entry[lang] if entry else str(key)


def format_param(name: str, value: Any, lang: str, params: Mapping[str, Any] | None = None) -> str:
    """One param as text in ``lang`` (see the module docstring for the naming rules);
    ``params``: all of its text's, which say whose chapter names the cards it names."""
    cards = card_param(name, value, params or {}, lang)
    if cards is not None:
        return cards
    if value is None:
        return "-"
    if name in _SQUARE_KEYS:
        return _format_square(value)
    naming = current_naming()
    if name in _PLAYER_KEYS and naming.players:
        ids = value if isinstance(value, list | tuple) else [value]
        return ", ".join(naming.player_name(str(pid)) for pid in ids)
    if name in _FIGURE_KEYS and (naming.figure_labels or naming.aims_in_words):
        return _figure_param(name, value, params or {}, naming, lang)
    turn_text = turn_param(name, value, lang)
    if turn_text is not None:
        return turn_text
    if name == "path":
        return " → ".join(_format_square(sq) for sq in value)
    if name == "unit":
        return _translated(UNIT_NAMES, value, lang)
    if name == "units":
        names = [_translated(UNIT_NAMES, unit, lang) for unit in value]
        return ", ".join(names) if names else ("tutti gli Alieni" if lang == "it" else "all aliens")
    if name in ("weapon", "old_weapon"):
        return weapon_name(str(value), lang)
    if name == "exits":
        return " ".join(_format_square(sq) for sq in value)
    if name == "policy":
        return _translated(POLICY_NAMES, value, lang)
    if name in ("criterion", "mode", "kind", "reason"):
        return _translated(PHRASES, value, lang)
    if name == "direction":
        entry = DIRECTION_NAMES.get((int(value[0]), int(value[1])))
        return entry[lang] if entry else _format_square(value)
    if name == "card":
        return event_card_name(str(value), lang)
    if name == "text" and isinstance(value, Mapping):
        return str(value.get(lang, ""))
    if isinstance(value, float):
        return decimal(value, 2, lang)
    if isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value)
    return str(value)


def _figure_param(
    name: str, value: Any, params: Mapping[str, Any], naming: Naming, lang: str
) -> str:
    """Figure ids with their labels; a line weapon's aim (``target`` of an Alien's choice)
    as a direction in words."""
    if name == "target" and naming.aims_in_words and _is_line_aim(value, params):
        dx, dy = (int(part) for part in str(value).split(","))
        entry = DIRECTION_NAMES.get((dx, dy))
        if entry:
            return entry[lang]
    if isinstance(value, list | tuple):
        return ", ".join(naming.figure_name(str(item)) for item in value)
    return naming.figure_name(str(value))


def _is_line_aim(value: Any, params: Mapping[str, Any]) -> bool:
    weapons = load_rules_data().weapons
    weapon = weapons.get(str(params.get("weapon", "")))
    return (
        isinstance(value, str)
        and weapon is not None
        and weapon.pattern in _LINE_PATTERNS
        and value.count(",") == 1
        and all(part.lstrip("-").isdigit() for part in value.split(","))
    )


def fields_of(template: str) -> tuple[str, ...]:
    """The param names a template uses, in order."""
    return tuple(name for _, name, _, _ in string.Formatter().parse(template) if name)


def render_template(template: str, params: Mapping[str, Any], lang: str) -> str:
    """``template`` with its params formatted in ``lang`` (a missing param shows "-")."""
    values = {
        name: format_param(name, params.get(name), lang, params) for name in fields_of(template)
    }
    return template.format(**values)


def render(code: str, params: Mapping[str, Any], lang: str) -> str:
    """The text of one step in ``lang`` ("it" or "en")."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not available: use one of {', '.join(LANGUAGES)}")
    singular = SINGULAR.get(code)
    if singular is not None and params.get(singular[0]) == 1:
        return render_template(singular[1][lang], params, lang)
    if code == "dice" and params.get("purpose"):
        return _dice_for(params, lang)
    return render_template(MESSAGES[code][lang], params, lang)


def _dice_for(params: Mapping[str, Any], lang: str) -> str:
    """A roll of an Alien turn named by what it was for, as the marines' attacks read
    ("Dr1 fires the missile launcher at square 11,13: red 1, 0."): a Dreadnought firing
    each of its weapons, or a fight's two sides, say which dice are whose and where they
    were aimed. A purpose that is no code (an older log) keeps the plain wording."""
    purpose = PURPOSES.get(params["purpose"])
    if purpose is None:
        return render_template(MESSAGES["dice"][lang], params, lang)
    said = render_template(purpose[lang], params.get("purpose_params") or {}, lang)
    rolled = render_template("{kind} {values}", params, lang)
    return f"{said}: {rolled}."


def template_fields(code: str, lang: str) -> set[str]:
    """The param names a template uses (tests check both languages agree)."""
    return set(fields_of(MESSAGES[code][lang]))
