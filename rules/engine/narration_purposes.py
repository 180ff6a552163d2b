"""The purposes the engine records its rolls with, in both languages: a code per purpose,
its params named as :mod:`rules.engine.narration` names them. Read by
:mod:`rules.engine.narration_dice` (the dice lists) and :mod:`rules.engine.narration` (an
Alien turn's dice steps say what each roll was for); data only, so neither imports the
other.
"""

from __future__ import annotations

PURPOSES: dict[str, dict[str, str]] = {
    "event_draw": {"it": "pesca della carta Evento Alieno", "en": "event card draw"},
    "event_target": {"it": "bersaglio della carta Evento Alieno", "en": "event card target"},
    "event_figure": {
        "it": "carta Evento Alieno: Marine accanto a cui compare l'Alieno",
        "en": "event card: the marine the alien appears next to",
    },
    "teleport_first": {"it": "teletrasporto: primo Alieno", "en": "teleport: first alien"},
    "teleport_second": {"it": "teletrasporto: secondo Alieno", "en": "teleport: second alien"},
    "reinforcement_token": {
        "it": "pesca del segnalino Rinforzo",
        "en": "reinforcement token draw",
    },
    "reinforcement_square": {"it": "casella R del rinforzo", "en": "reinforcement square"},
    "reinforcements": {"it": "arrivo dei rinforzi", "en": "reinforcements"},
    "reinforcement_count": {"it": "numero dei rinforzi", "en": "reinforcement count"},
    "alien_order": {
        "it": "ordine degli Alieni alla stessa distanza",
        "en": "order of aliens at the same distance",
    },
    "blip_order": {
        "it": "ordine dei Blip alla stessa distanza",
        "en": "order of blips at the same distance",
    },
    "elite_tie": {
        "it": "parità tra gli Alieni d'élite più vicini",
        "en": "tie between the nearest elite aliens",
    },
    "nearest_marine_tie": {
        "it": "parità tra i Marine più vicini",
        "en": "tie between the nearest marines",
    },
    "solitaire_behaviour": {"it": "comportamento (Solitario)", "en": "Solitaire behaviour"},
    "survey_blip_count": {
        "it": "numero di segnalini Blip del tabellone",
        "en": "number of blips in the section",
    },
    "blip_draw": {"it": "pesca del segnalino Blip", "en": "blip draw"},
    "blip_placement": {"it": "piazzamento del segnalino Blip", "en": "blip placement"},
    "hand_to_hand_attack": {
        "it": "corpo a corpo: {attacker} attacca {defender}",
        "en": "hand-to-hand: {attacker} attacks {defender}",
    },
    "hand_to_hand_defence": {
        "it": "corpo a corpo: {defender} si difende da {attacker}",
        "en": "hand-to-hand: {defender} defends against {attacker}",
    },
    "door_attack": {
        "it": "{attacker} attacca la porta stagna rinforzata tra {a} e {b}",
        "en": "{attacker} attacks the bulkhead door between {a} and {b}",
    },
    "shot": {
        "it": "{attacker} spara con {weapon} a {target}",
        "en": "{attacker} fires the {weapon} at {target}",
    },
    "shot_line": {
        "it": "{attacker} spara con {weapon} {direction}",
        "en": "{attacker} fires the {weapon} {direction}",
    },
    "shot_square": {
        "it": "{attacker} spara con {weapon} sulla casella {square}",
        "en": "{attacker} fires the {weapon} at square {square}",
    },
    "shot_area": {
        "it": "{attacker} spara con {weapon} sull'area che parte da {square} (colpi: {shots})",
        "en": "{attacker} fires the {weapon} at the area from {square} (shots: {shots})",
    },
    "reroll": {
        "it": "{figure} ritira il dado {die} ({chapter_card})",
        "en": "{figure} rolls die {die} again ({chapter_card})",
    },
    "self_destruct": {"it": "{attacker} si fa esplodere", "en": "{attacker} blows itself up"},
    "shot_split": {
        "it": "{attacker} spara con {weapon} (totale da ripartire)",
        "en": "{attacker} fires the {weapon} (total to split)",
    },
}
