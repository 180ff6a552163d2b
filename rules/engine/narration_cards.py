"""The texts of the chapter cards the engine applies to attacks (RULES §5), both languages.

``CARD_ATTACKS`` are attack descriptions and ``CARD_EVENTS`` combat log lines (merged into
:mod:`rules.engine.narration_combat`), ``CARD_MESSAGES`` step-log lines (merged into
:data:`rules.engine.narration.MESSAGES`), ``CARD_ERRORS`` the refusals of a re-roll, each
naming its rule (merged into :data:`rules.engine.narration_errors.ERRORS`). Params:
``chapter_card`` an effect code, ``chapter_cards`` a list of them, ``die`` a die's number
in the attack (from 1), ``choices`` the dice that may be chosen.
"""

from __future__ import annotations

CARD_ATTACKS: dict[str, dict[str, str]] = {
    "fight_card": {
        "it": "{attacker} combatte in corpo a corpo con {target} usando {chapter_card} ({dice} "
        "contro {their_dice})",
        "en": "{attacker} fights {target} hand-to-hand with the {chapter_card} ({dice} against "
        "{their_dice})",
    },
    "fight_tarantula_card": {
        "it": "{attacker} assale in corpo a corpo la Tarantola {target} usando {chapter_card} "
        "({dice} contro l'armatura)",
        "en": "{attacker} attacks the Tarantula {target} hand-to-hand with the {chapter_card} "
        "({dice} vs armour)",
    },
    "shot_card": {
        "it": "{attacker} spara col bolter come {weapon} ({chapter_card}) a {target} ({dice} "
        "contro armatura {armour})",
        "en": "{attacker} fires the bolter as a {weapon} ({chapter_card}) at {target} ({dice} "
        "vs armour {armour})",
    },
    "line_shot_card": {
        "it": "{attacker} spara col bolter come {weapon} ({chapter_card}) da {origin} "
        "{direction}: {targets}",
        "en": "{attacker} fires the bolter as a {weapon} ({chapter_card}) from {origin} "
        "{direction}: {targets}",
    },
}

CARD_EVENTS: dict[str, dict[str, str]] = {
    "card_force_field": {
        "it": "{chapter_card}: l'armatura di {figure} vale 3",
        "en": "{chapter_card}: {figure}'s armour is 3",
    },
    "card_bolt_pistols": {
        "it": "{chapter_card}: {figure} tira un dado leggero in più",
        "en": "{chapter_card}: {figure} rolls one more light die",
    },
    "card_melta_bomb": {
        "it": "{chapter_card}: {figure} aggiunge 2 dadi pesanti (carta spesa)",
        "en": "{chapter_card}: {figure} adds 2 heavy dice (card spent)",
    },
    "card_close_assault_blades": {
        "it": "{chapter_card} di {opponent}: {figure} tira un dado in meno, il più forte",
        "en": "{opponent}'s {chapter_card}: {figure} rolls one die fewer, its strongest",
    },
    "card_photon_grenades": {
        "it": "{chapter_card}: {figure} tira un dado in meno, il più forte",
        "en": "{chapter_card}: {figure} rolls one die fewer, its strongest",
    },
    "card_combi_weapon": {
        "it": "{chapter_card}: {figure} spara col bolter come con un fucile al plasma",
        "en": "{chapter_card}: {figure} fires the bolter as a plasma gun",
    },
}

#: The Alien turn's log tells the card events as steps, with the same texts.
CARD_MESSAGES: dict[str, dict[str, str]] = {
    **CARD_EVENTS,
    "reroll_offer": {
        "it": "{chapter_cards}: {figure} può ritirare uno dei suoi dadi ({choices}) prima di ogni "
        "altra azione",
        "en": "{chapter_cards}: {figure} may roll one of its dice ({choices}) again before "
        "anything else happens",
    },
    "reroll_offer_defence": {
        "it": "{chapter_cards}: {figure}, che si difende, può ritirare uno dei suoi dadi "
        "({choices}) prima di ogni altra azione (sceglie il suo giocatore)",
        "en": "{chapter_cards}: {figure}, who defends, may roll one of his own dice ({choices}) "
        "again before anything else happens (his player chooses)",
    },
    "reroll_auto": {
        "it": "{chapter_card}: {figure} perderebbe punti vita, quindi il motore ritira per lui "
        "il dado {die} ({old}), quello più sotto la media.",
        "en": "{chapter_card}: {figure} would lose life points, so the engine rolls his die "
        "{die} ({old}) again for him, the one furthest below its average.",
    },
    "reroll_done": {
        "it": "{chapter_card}: {figure} ritira il dado {die} ({old} → {new}); l'attacco è "
        "risolto di nuovo",
        "en": "{chapter_card}: {figure} rolls die {die} again ({old} → {new}); the attack is "
        "resolved again",
    },
}

CARD_ERRORS: dict[str, dict[str, str]] = {
    "reroll_no_attack": {
        "it": "L'ultimo passo non è un attacco che una carta permette di ritirare (regola: si "
        "ritira subito dopo il tiro, prima di ogni altra azione)",
        "en": "the last step is not an attack a card lets you roll again (rule: a die is "
        "rolled again right after the roll, before anything else happens)",
    },
    "reroll_no_card": {
        "it": "Nessuna carta permette a {figure} di ritirare un dado in questo attacco (regola: "
        "solo {targeter_card}, {bionic_eye_card}, {digital_weapons_card} e {bionic_arm_card})",
        "en": "no card lets {figure} roll a die again in this attack (rule: only "
        "{targeter_card}, {bionic_eye_card}, {digital_weapons_card} and {bionic_arm_card} do)",
    },
    "reroll_used": {
        "it": "{figure} ha già ritirato un dado in questo attacco con {chapter_cards} (regola: "
        "un dado per carta e per attacco)",
        "en": "{figure} has already rolled a die again in this attack with {chapter_cards} "
        "(rule: one die per card and attack)",
    },
    "reroll_bad_die": {
        "it": "Il dado {die} non è uno dei dadi di {figure} in questo attacco: scegli tra "
        "{choices}",
        "en": "die {die} is not one of {figure}'s dice in this attack: choose one of {choices}",
    },
    "reroll_bad_die_any": {
        "it": "Il dado {die} non è un dado che una carta permette di ritirare in questo "
        "attacco: scegli tra {choices}",
        "en": "die {die} is not a die a card lets anyone roll again in this attack: choose one "
        "of {choices}",
    },
    "reroll_replay": {
        "it": "L'attacco non si può risolvere di nuovo con gli stessi dadi: annulla e rigiocalo",
        "en": "the attack cannot be resolved again with the same dice: undo it and play it again",
    },
}
