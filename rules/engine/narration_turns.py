"""The texts of turns, chapter cards and the end of a game (RULES §5, §6, §10 "Turns").

``TURN_MESSAGES`` are step-log lines (merged into :data:`rules.engine.narration.MESSAGES`),
``TURN_ERRORS`` the refusals of what a turn no longer allows, each naming its rule (merged
into :data:`rules.engine.narration_errors.ERRORS`). Params: ``chapter_card`` an effect
code of :data:`CARDS` shown with its name, ``ending`` a code of :data:`ENDINGS`.
"""

from __future__ import annotations

from rules.engine.figure_names import item_name

#: Chapter cards by effect code: kind and what the engine does with them, for the judge
#: (their names: :mod:`rules.engine.card_names`).
CARDS: dict[str, dict[str, str]] = {
    "fire": {
        "kind": "order",
        "effect_it": "ogni figura può sparare due volte, prima, dopo o ai due lati del movimento",
        "effect_en": "every figure may shoot twice, before, after or on both sides of its move",
    },
    "move_it": {
        "kind": "order",
        "effect_it": "ogni figura può muovere due volte, con l'attacco prima, tra o dopo i "
        "movimenti",
        "effect_en": "every figure may move twice, its attack before, between or after the moves",
    },
    "by_section": {
        "kind": "order",
        "effect_it": "ogni figura muove due volte oppure spara due volte, senza mescolare",
        "effect_en": "every figure either moves twice or shoots twice, never mixing the two",
    },
    "close_assault": {
        "kind": "order",
        "effect_it": "i marine con bolter possono sia sparare sia combattere corpo a corpo",
        "effect_en": "bolter marines may both shoot and fight hand-to-hand",
    },
    "heavy_weapon": {
        "kind": "order",
        "effect_it": "un marine con arma pesante può muovere due volte e sparare due volte",
        "effect_en": "one heavy-weapon marine may move twice and shoot twice",
    },
    "photon_grenades": {
        "kind": "order",
        "effect_it": "gli Alieni combattuti corpo a corpo in questo turno tirano un dado in meno "
        "(si scarta il più forte): toglilo dal loro tiro",
        "effect_en": "aliens fought hand-to-hand this turn roll one die fewer (the strongest "
        "is dropped): take it off their roll",
    },
    "blind_grenades": {
        "kind": "equipment",
        "effect_it": "nel prossimo turno alieno nessuna figura della squadra può essere attaccata",
        "effect_en": "no figure of the squad may be attacked in the next Alien turn",
    },
    "medi_kit": {
        "kind": "equipment",
        "effect_it": "il comandante torna ai suoi punti vita iniziali",
        "effect_en": "the commander is healed back to full life points",
    },
    "suspensors": {
        "kind": "equipment",
        "effect_it": "i marine con arma pesante muovono 6 caselle invece di 4",
        "effect_en": "heavy-weapon marines move 6 squares instead of 4",
    },
    "bio_scanner": {
        "kind": "equipment",
        "effect_it": "all'inizio del turno guarda 3 segnalini Blip sul tabellone",
        "effect_en": "at the start of the turn, look at 3 blips on the board",
    },
    "bolt_pistols": {
        "kind": "equipment",
        "effect_it": "i marine con bolter tirano 1 dado leggero in più nel corpo a corpo",
        "effect_en": "bolter marines roll 1 extra light die hand-to-hand",
    },
    "digital_weapons": {
        "kind": "equipment",
        "effect_it": "il comandante può ritirare un dado a ogni attacco",
        "effect_en": "the commander may re-roll one die on each attack",
    },
    "melta_bomb": {
        "kind": "equipment",
        "effect_it": "una volta: un marine aggiunge 2 dadi pesanti a un corpo a corpo",
        "effect_en": "once: one marine adds 2 heavy dice to one hand-to-hand attack",
    },
    "targeter": {
        "kind": "equipment",
        "effect_it": "chi spara con l'arma segnata può ritirare un dado",
        "effect_en": "a marine firing the marked weapon may re-roll one die",
    },
    "bionic_eye": {
        "kind": "equipment",
        "effect_it": "il comandante può ritirare un dado quando spara",
        "effect_en": "the commander may re-roll one die when he shoots",
    },
    "combi_weapon": {
        "kind": "equipment",
        "effect_it": "il comandante col bolter pesante può spararlo come un fucile al plasma",
        "effect_en": "a commander with the heavy bolter may fire it as a plasma gun",
    },
    "bionic_arm": {
        "kind": "equipment",
        "effect_it": "il comandante può ritirare un dado nel corpo a corpo",
        "effect_en": "the commander may re-roll one die hand-to-hand",
    },
    "close_assault_blades": {
        "kind": "equipment",
        "effect_it": "i marine con bolter combattono anche in diagonale e l'avversario scarta "
        "il suo dado più forte",
        "effect_en": "bolter marines may fight diagonally and their opponents drop their "
        "strongest die",
    },
    "force_field": {
        "kind": "equipment",
        "effect_it": "l'armatura del comandante vale 3",
        "effect_en": "the commander's armour is 3",
    },
}

#: Why a game ended.
ENDINGS: dict[str, dict[str, str]] = {
    "rounds_played": {"it": "giocati tutti i round", "en": "every round played"},
    "escape_over": {
        "it": "finiti i round per tornare agli artigli d'attracco dopo la morte dell'ultimo Alieno",
        "en": "the rounds to reach the claws after the last alien died are over",
    },
    "last_event_card": {
        "it": "finito il round dell'ultima carta evento",
        "en": "the round of the last event card is over",
    },
    "last_squad": {"it": "resta una sola squadra", "en": "one squad is left"},
    "no_squad": {"it": "nessuna squadra è rimasta", "en": "no squad is left"},
    "stall_limit": {
        "it": "raggiunto il limite di round dell'anti-stallo",
        "en": "the stall breaker's round limit is reached",
    },
    "nobody_left": {
        "it": "nessun marine è rimasto sul tabellone",
        "en": "no marine is left on the board",
    },
}

TURN_MESSAGES: dict[str, dict[str, str]] = {
    "turn_passes": {
        "it": "{player} termina il suo turno; tocca a {next}.",
        "en": "{player} ends their turn; {next} plays.",
    },
    "turn_aliens_next": {
        "it": "{player} termina il suo turno: hanno giocato tutti, tocca agli Alieni.",
        "en": "{player} ends their turn: every player has played, the Aliens act.",
    },
    "turn_round_ends": {
        "it": "{player} termina il suo turno: hanno giocato tutti, il round finisce (sessione "
        "senza Alieni).",
        "en": "{player} ends their turn: every player has played, the round ends (a session "
        "without aliens).",
    },
    "round_starts": {
        "it": "Inizia il round {round}: gioca per primo {player}.",
        "en": "Round {round} begins: {player} plays first.",
    },
    "order_played": {
        "it": "{player} gioca {chapter_card}: {effect}.",
        "en": "{player} plays {chapter_card}: {effect}.",
    },
    "order_names_figure": {
        "it": "{chapter_card} vale per {figure}.",
        "en": "{chapter_card} is for {figure}.",
    },
    "equipment_used": {
        "it": "{player} usa {chapter_card}: {effect}.",
        "en": "{player} uses {chapter_card}: {effect}.",
    },
    "card_reminder": {
        "it": "Promemoria per {player}: {chapter_card} — {effect}.",
        "en": "Reminder for {player}: {chapter_card} — {effect}.",
    },
    "figure_healed": {
        "it": "{figure} torna a {life_points} punti vita.",
        "en": "{figure} is back to {life_points} life points.",
    },
    "players_shielded": {
        "it": "Nel turno alieno non si possono attaccare le figure di {players} "
        "({blind_grenades_card}).",
        "en": "The figures of {players} cannot be attacked in the Alien turn "
        "({blind_grenades_card}).",
    },
    "left_play": {
        "it": "{figure} esce dal gioco dall'artiglio d'attracco {claw}: è salvo e non fa "
        "più punti.",
        "en": "{figure} leaves play through docking claw {claw}: safe, it scores nothing more.",
    },
    "aliens_cleared": {
        "it": "Tutti gli Alieni sono morti: le squadre hanno {rounds} round per tornare agli "
        "artigli d'attracco (fino al round {last}).",
        "en": "Every alien is dead: the squads have {rounds} rounds to reach their claws "
        "(until round {last}).",
    },
    "last_event_card": {
        "it": "È stata pescata l'ultima carta evento: ogni giocatore ha un ultimo turno, "
        "senza turno alieno; poi i marine rimasti sul tabellone sono persi.",
        "en": "The last event card was drawn: every player has one last turn, with no Alien "
        "turn; then marines left on the board are lost.",
    },
    "marine_lost": {
        "it": "{figure} è ancora sul tabellone alla fine della partita: è perso.",
        "en": "{figure} is still on the board when the game ends: it is lost.",
    },
    "stall_round": {
        "it": "Anti-stallo, round {round}: {player} è a {distance} caselle dalla squadra nemica "
        "più vicina (prima {before}): {points} punti.",
        "en": "Stall breaker, round {round}: {player} is {distance} squares from the nearest "
        "enemy squad (before: {before}): {points} points.",
    },
    "flag_found": {
        "it": "Trovata la bandiera {flag} su {square}.",
        "en": "Flag {flag} found on {square}.",
    },
    "flag_picked_up": {
        "it": "{figure} raccoglie la bandiera {flag}.",
        "en": "{figure} picks up flag {flag}.",
    },
    "flag_dropped": {
        "it": "La bandiera {flag} cade su {square}.",
        "en": "Flag {flag} drops on {square}.",
    },
    "flag_scored": {
        "it": "La bandiera {flag} è riportata all'artiglio d'attracco: {points} punti a {player}.",
        "en": "Flag {flag} is brought home: {points} points to {player}.",
    },
    "equipment_found_vehicle": {
        "it": "Sotto il blip in {square} c'è equipaggiamento speciale: {item}, {figure}, "
        "abbandonato finché un marine non ci sale.",
        "en": "The blip on {square} hid special equipment: {item}, {figure}, abandoned until "
        "a marine boards it.",
    },
    "equipment_found_weapon": {
        "it": "Sotto il blip in {square} c'è equipaggiamento speciale: {weapon}, a terra finché "
        "un marine non lo raccoglie.",
        "en": "The blip on {square} hid special equipment: a {weapon}, lying there until a "
        "marine picks it up.",
    },
    "equipment_no_room": {
        "it": "Sotto il blip in {square} c'è equipaggiamento speciale ({item}), ma non c'è "
        "spazio per metterlo sul tabellone: il giudice lo piazza a mano.",
        "en": "The blip on {square} hid special equipment ({item}) but there is no room for it "
        "on the board: the judge places it by hand.",
    },
    "tarantula_crewed": {
        "it": "{figure} prende i comandi della Tarantola {vehicle}: usa tutto il turno e si "
        "mette dietro l'arma.",
        "en": "{figure} takes the controls of Tarantula {vehicle}: it spends its whole turn and "
        "stands behind the weapon.",
    },
    "dreadnought_boarded": {
        "it": "{figure} entra nel Dreadnought {vehicle} e lo pilota: usa tutto il turno.",
        "en": "{figure} climbs into Dreadnought {vehicle} and pilots it: it spends its whole turn.",
    },
    "vehicle_left": {
        "it": "{figure} lascia {vehicle} e resta in {square}: usa tutto il turno; il veicolo "
        "è abbandonato.",
        "en": "{figure} leaves {vehicle} and stands on {square}: it spends its whole turn; the "
        "vehicle is abandoned.",
    },
    "weapon_picked_up": {
        "it": "{figure} raccoglie l'arma {weapon} e lascia {old_weapon}: ora vale {points} punti "
        "e non attacca più in questo turno.",
        "en": "{figure} picks up the {weapon} and leaves its {old_weapon}: it is now worth "
        "{points} points and attacks no more this turn.",
    },
    "game_over": {
        "it": "La partita è finita ({ending}). Vince: {winners}.",
        "en": "The game is over ({ending}). Winner: {winners}.",
    },
    "squad_eliminated": {
        "it": "La squadra di {player} è eliminata: non ha più Marine in gioco (round {round}).",
        "en": "Player {player}'s squad is out: it has no marine left in play (round {round}).",
    },
    "tpk_ranking": {
        "it": "Classifica: {ranking}.",
        "en": "Placings: {ranking}.",
    },
}

TURN_ERRORS: dict[str, dict[str, str]] = {
    "turn_game_over": {
        "it": "La partita è finita ({ending}): non si gioca più",
        "en": "the game is over ({ending}): nothing more is played",
    },
    "turn_not_active": {
        "it": "È il turno di {active}, non di {player} (regola: i giocatori agiscono "
        "nell'ordine di iniziativa)",
        "en": "it is {active}'s turn, not {player}'s (rule: players act in initiative order)",
    },
    "turn_aliens_phase": {
        "it": "Hanno giocato tutti: ora il turno alieno chiude il round (regola: gli Alieni "
        "agiscono alla fine di ogni round)",
        "en": "every player has played: the Alien turn now closes the round (rule: the Aliens "
        "act at the end of each round)",
    },
    "turn_players_first": {
        "it": "Tocca ancora a {active}: il round finisce quando hanno giocato tutti",
        "en": "{active} still has to play: the round ends once every player has played",
    },
    "turn_aliens_on_board": {
        "it": "Ci sono Alieni o segnalini in gioco: il round si chiude con il turno alieno",
        "en": "aliens or their tokens are in play: the Alien turn closes the round",
    },
    "turn_second_move": {
        "it": "{figure} ha già mosso in questo turno (regola: un movimento per turno)",
        "en": "{figure} has already moved this turn (rule: one move a turn)",
    },
    "turn_move_too_far": {
        "it": "{figure} ha già usato {moved} delle sue {allowance} caselle in questo movimento: "
        "altre {steps} sono troppe (regola: si muove al massimo del proprio movimento)",
        "en": "{figure} has used {moved} of its {allowance} squares in this move: {steps} more "
        "is too far (rule: a figure moves at most its movement)",
    },
    "turn_volley_left": {
        "it": "{figure} sta sparando con {weapon} e gli restano {shots} colpi: può solo "
        "sparare quelli (regola: le aree dei colpi seguenti si scelgono dopo il tiro)",
        "en": "{figure} is firing the {weapon} and has {shots} shots left: it may only fire "
        "those (rule: the next shots' areas are chosen after the roll)",
    },
    "turn_second_attack": {
        "it": "{figure} ha già attaccato in questo turno (regola: un attacco per turno)",
        "en": "{figure} has already attacked this turn (rule: one attack a turn)",
    },
    "turn_second_fight": {
        "it": "{figure} ha già combattuto corpo a corpo in questo turno (regola: un corpo a "
        "corpo per turno)",
        "en": "{figure} has already fought hand-to-hand this turn (rule: one fight a turn)",
    },
    "turn_second_shot": {
        "it": "{figure} ha già sparato in questo turno (regola: con {chapter_card} si spara una "
        "volta e si combatte una volta)",
        "en": "{figure} has already shot this turn (rule: with {chapter_card} a figure shoots "
        "once and fights once)",
    },
    "turn_no_mix": {
        "it": "{figure} ha già {done} in questo turno: con {chapter_card} muove due volte o "
        "attacca due volte, senza mescolare",
        "en": "{figure} has already {done} this turn: with {chapter_card} it moves twice or "
        "attacks twice, never both",
    },
    "turn_tarantula_one_action": {
        "it": "La Tarantola {figure} ha già {done}: in un turno muove o spara (regola: solo "
        "{fire_card}, {move_it_card} e {by_section_card} le permettono entrambe le cose)",
        "en": "Tarantula {figure} has already {done}: in a turn it moves or shoots (rule: only "
        "{fire_card}, {move_it_card} and {by_section_card} allow both)",
    },
    "turn_order_played": {
        "it": "In questo turno è già stata giocata {chapter_card} (regola: una carta ordine per "
        "turno)",
        "en": "{chapter_card} was already played this turn (rule: one order card a turn)",
    },
    "turn_order_late": {
        "it": "Le carte ordine si giocano all'inizio del turno, prima che una figura agisca",
        "en": "order cards are played at the start of the turn, before any figure acts",
    },
    "turn_card_not_held": {
        "it": "{player} non ha più la carta {chapter_card}",
        "en": "{player} has no {chapter_card} card left",
    },
    "turn_card_unknown": {
        "it": "Carta sconosciuta '{card_code}'",
        "en": "unknown card '{card_code}'",
    },
    "turn_card_wrong_kind": {
        "it": "{chapter_card} non è una carta {kind_name}",
        "en": "{chapter_card} is not an {kind_name} card",
    },
    "turn_card_not_playable": {
        "it": "{chapter_card} non si gioca come azione: il suo effetto vale da solo o è un "
        "promemoria",
        "en": "{chapter_card} is not played as an action: it works by itself or is a reminder",
    },
    "turn_card_needs_figure": {
        "it": "{chapter_card} vale per un marine con arma pesante di {player}: indicalo",
        "en": "{chapter_card} is for one heavy-weapon marine of {player}: name it",
    },
    "turn_no_aliens": {
        "it": "Questa sessione si gioca senza Alieni: non c'è turno alieno, chiudi il round con "
        "«round successivo»",
        "en": "this session is played without aliens: there is no Alien turn; close the round "
        "with Next round",
    },
    "turn_last_round": {
        "it": "Dopo l'ultima carta evento i giocatori hanno un ultimo turno senza turno "
        "alieno: chiudilo con «round successivo»",
        "en": "after the last event card the players have one last turn with no Alien turn: "
        "close it with Next round",
    },
    "turn_event_commander": {
        "it": "{figure} non può muovere né attaccare in questo turno (carta evento A Rapporto)",
        "en": "{figure} may neither move nor attack this turn (event card Report In)",
    },
    "turn_event_no_orders": {
        "it": "{player} non può usare carte ordine in questo turno (carta evento Comunicazioni "
        "Malfunzionanti)",
        "en": "{player} may not use order cards this turn (event card Communications Malfunction)",
    },
    "turn_event_jammed": {
        "it": "Le armi pesanti di {figure} non sparano in questo turno (carta evento Armi "
        "Inceppate): {weapon}",
        "en": "{figure}'s heavy weapons cannot fire this turn (event card Weapons Jammed): "
        "{weapon}",
    },
    "turn_medi_kit": {
        "it": "{player} non ha un comandante ferito da curare",
        "en": "{player} has no wounded commander to heal",
    },
    "turn_equipment_no_figure": {
        "it": "Non c'è nessuna figura {figure} sul tabellone",
        "en": "there is no figure {figure} on the board",
    },
    "turn_equipment_not_marine": {
        "it": "{figure} non è un marine a piedi: solo un marine sale su un veicolo o raccoglie "
        "un'arma",
        "en": "{figure} is not a marine on foot: only a marine boards a vehicle or picks up a "
        "weapon",
    },
    "turn_crew_commander": {
        "it": "{figure} è il comandante: il comandante non manovra la Tarantola né pilota il "
        "Dreadnought (regola: equipaggiamenti speciali)",
        "en": "{figure} is the commander: the commander neither crews a Tarantula nor pilots a "
        "Dreadnought (rule: special equipment)",
    },
    "turn_crew_aboard": {
        "it": "{figure} è già a bordo di {vehicle}",
        "en": "{figure} is already aboard {vehicle}",
    },
    "turn_crew_not_vehicle": {
        "it": "{vehicle} non è una Tarantola o un Dreadnought dei marine su cui salire",
        "en": "{vehicle} is no marine Tarantula or Dreadnought to board",
    },
    "turn_crew_taken": {
        "it": "Su {vehicle} c'è già {pilot}",
        "en": "{pilot} is already aboard {vehicle}",
    },
    "turn_crew_not_next": {
        "it": "{figure} deve prima mettersi accanto a {vehicle} (regola: un turno per "
        "affiancarlo, il turno intero seguente per salire)",
        "en": "{figure} must first stand next to {vehicle} (rule: one turn to get next to it, "
        "the whole next turn to board it)",
    },
    "turn_crew_no_room": {
        "it": "La casella {square} dietro la Tarantola {vehicle} non è libera: il cannoniere "
        "sta lì (regola: il cannoniere si mette dietro la Tarantola)",
        "en": "square {square} behind Tarantula {vehicle} is not free: the gunner stands there "
        "(rule: the gunner stands behind the Tarantula)",
    },
    "turn_crew_whole_turn": {
        "it": "{figure} ha già {done} in questo turno: salire su un veicolo o scenderne richiede "
        "il turno intero (regola: equipaggiamenti speciali)",
        "en": "{figure} has already {done} this turn: boarding or leaving a vehicle takes the "
        "whole turn (rule: special equipment)",
    },
    "turn_vehicle_turn": {
        "it": "{figure} ha usato questo turno per salire su un veicolo o scenderne: non fa "
        "altro (regola: richiede il turno intero)",
        "en": "{figure} spent this turn boarding or leaving a vehicle: it does nothing else "
        "(rule: that takes the whole turn)",
    },
    "turn_crew_acts_with": {
        "it": "{figure} è a bordo di {vehicle}: si muove con il veicolo, o ne scende prima",
        "en": "{figure} is aboard {vehicle}: it moves with the vehicle, or leaves it first",
    },
    "turn_vehicle_abandoned": {
        "it": "{vehicle} è abbandonato: si muove solo con un marine a bordo",
        "en": "{vehicle} is abandoned: it moves only with a marine aboard",
    },
    "turn_leave_no_crew": {
        "it": "Nessun marine è a bordo di {vehicle}",
        "en": "no marine is aboard {vehicle}",
    },
    "turn_leave_square": {
        "it": "Il pilota scende da {vehicle} su una casella libera accanto alla sua base, non "
        "in {square}: scegli tra {exits}",
        "en": "the pilot gets out of {vehicle} on a free square next to its base, not on "
        "{square}: choose one of {exits}",
    },
    "turn_pickup_commander": {
        "it": "{figure} è il comandante: il comandante non usa né raccoglie armi extra-pesanti "
        "(regola: armi extra-pesanti)",
        "en": "{figure} is the commander: the commander neither uses nor picks up extra-heavy "
        "weapons (rule: extra-heavy weapons)",
    },
    "turn_pickup_nothing": {
        "it": "In {square}, dove sta {figure}, non c'è un'arma da raccogliere: il marine deve "
        "starci sopra",
        "en": "there is no weapon to pick up on {square}, where {figure} stands: the marine "
        "must stand on it",
    },
    "turn_pickup_attacked": {
        "it": "{figure} ha già attaccato o raccolto in questo turno: raccogliere un'arma costa "
        "l'attacco del turno",
        "en": "{figure} has already attacked or picked up this turn: picking up a weapon costs "
        "the turn's attack",
    },
    "turn_picked_up": {
        "it": "{figure} ha raccolto un'arma in questo turno: attacca dal prossimo turno "
        "(regola: raccogliere costa l'attacco)",
        "en": "{figure} picked up a weapon this turn: it attacks from its next turn (rule: "
        "picking up costs the attack)",
    },
    "turn_figure_left_play": {
        "it": "{figure} è uscito dal gioco dal suo artiglio d'attracco e non rientra",
        "en": "{figure} left play through its docking claw and cannot return",
    },
}

#: The phases a refusal may name as done, in both languages.
DONE_PHASES: dict[str, dict[str, str]] = {
    "move": {"it": "mosso", "en": "moved"},
    "shot": {"it": "sparato", "en": "shot"},
    "fight": {"it": "combattuto", "en": "fought"},
    "vehicle": {"it": "usato il turno con un veicolo", "en": "spent the turn on a vehicle"},
    "pickup": {"it": "raccolto un'arma", "en": "picked up a weapon"},
}


KIND_NAMES: dict[str, dict[str, str]] = {
    "order": {"it": "ordine", "en": "order"},
    "equipment": {"it": "equipaggiamento", "en": "equipment"},
}


def turn_param(name: str, value: object, lang: str) -> str | None:
    """A param of this module's texts in ``lang``; None for a param it does not know."""
    if name == "item":
        return item_name(str(value), lang)
    table = {"ending": ENDINGS, "done": DONE_PHASES, "kind_name": KIND_NAMES}.get(name)
    if table is not None:
        entry = table.get(str(value))
        return entry[lang] if entry else str(value)
    if name == "effect":
        return card_effect(str(value), lang)
    return None


def card_effect(code: str, lang: str) -> str:
    card = CARDS.get(code)
    return card[f"effect_{lang}"] if card else ""
