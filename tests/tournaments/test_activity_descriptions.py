"""Activity entries keep what they are about as a code with plain params, written in English
next to it, and read in the reader's language; text without a code is shown as it is."""

import pytest
from django.utils import translation

from rules.engine.event_cards import EFFECT_CODES, TURN_LIMITS
from tests.factories import (
    SessionFactory,
    StageFactory,
    TournamentFactory,
    UserFactory,
    register_players,
)
from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.player_accounts import link_account
from tournaments.models import ActivityLog, ActivityVerb, Stage, StageKind
from tournaments.queries.activity_descriptions import (
    DESCRIPTIONS,
    description_label,
    entry_description,
)
from tournaments.queries.change_words import EVENT_EFFECTS, EVENT_TURN_LIMITS, changes_text

pytestmark = pytest.mark.django_db

SEMIFINAL_SESSION = {
    "stage": {"tournament": "Coppa", "kind": "semifinal", "number": 3},
    "number": 2,
}

#: Params that fit each code, and the English and Italian texts they give.
SAMPLES = {
    "session": ({"session": SEMIFINAL_SESSION}, "Coppa – Semifinal (3) – session 2"),
    "stage": (
        {"stage": {"tournament": "Coppa", "kind": "final", "number": 4}},
        "Coppa – Final (4)",
    ),
    "stipulation_set": (
        {"session": SEMIFINAL_SESSION, "kind": "catch_the_flag"},
        "stipulation of Coppa – Semifinal (3) – session 2 set to Catch the Flag",
    ),
    "stipulation_cleared": (
        {"session": SEMIFINAL_SESSION},
        "stipulation of Coppa – Semifinal (3) – session 2 cleared: it plays the stage's",
    ),
    "session_map_set": (
        {"session": SEMIFINAL_SESSION, "old": "hunt-derelict", "new": "tpk-ring"},
        "map of Coppa – Semifinal (3) – session 2 changed: hunt-derelict → tpk-ring",
    ),
    "session_map_stage": (
        {"session": SEMIFINAL_SESSION, "old": "tpk-ring", "new": "hunt-derelict"},
        "map of Coppa – Semifinal (3) – session 2 changed: tpk-ring → the stage's, hunt-derelict",
    ),
    "threshold_added": (
        {"points": 30, "session": SEMIFINAL_SESSION},
        "score threshold 30 added to Coppa – Semifinal (3) – session 2",
    ),
    "threshold_removed": (
        {"points": 30, "session": SEMIFINAL_SESSION},
        "score threshold 30 removed from Coppa – Semifinal (3) – session 2",
    ),
    "player_roster": ({}, "player roster"),
    "judge_added": ({"name": "anna"}, "judge anna added"),
    "table_added": ({"name": "Sala A"}, "table Sala A added"),
    "table_removed": ({"name": "3"}, "table 3 removed"),
    "tournament_imported": ({}, "tournament imported from a document"),
    "map_added": ({"name": "relitto"}, "map relitto added"),
    "map_changed": ({"name": "relitto"}, "map relitto changed"),
    "map_renamed": ({"old": "relitto", "name": "relitto-2"}, "map relitto renamed relitto-2"),
    "map_removed": ({"name": "relitto"}, "map relitto removed"),
    "squad_preferences": ({"name": "Mariolone"}, "squad preferences of Mariolone"),
    "squad_preferences_cleared": (
        {"name": "Mariolone"},
        "squad preferences of Mariolone cleared",
    ),
    "loadout": ({"name": "Mariolone"}, "loadout of Mariolone"),
    "account_linked": (
        {"user": "marta", "player": "Marta Bianchi"},
        "account marta linked to Marta Bianchi",
    ),
    "private_link_renewed": (
        {"player": "WH"},
        "new private link for WH (the old one no longer works)",
    ),
    "account_unlinked": (
        {"user": "marta", "player": "Marta Bianchi"},
        "account marta unlinked from Marta Bianchi",
    ),
    "player_withdrawn": ({"player": "WH"}, "WH withdrawn"),
    "player_edited": ({"player": "WH"}, "details of WH"),
    "reserve_seated": (
        {"reserve": "Ada", "player": "WH", "session": SEMIFINAL_SESSION},
        "WH replaced by Ada in Coppa – Semifinal (3) – session 2",
    ),
    "player_in_session": (
        {"player": "WH", "session": SEMIFINAL_SESSION},
        "WH in Coppa – Semifinal (3) – session 2",
    ),
    "player_in_result": (
        {"player": "WH", "session": SEMIFINAL_SESSION},
        "WH in Coppa – Semifinal (3) – session 2, ranked in its result",
    ),
    "judge_removed": ({"name": "anna"}, "judge anna removed"),
    "password_link": ({"name": "anna"}, "link to set a password issued for anna"),
    "organiser_added": ({"name": "anna"}, "organiser anna added"),
    "organiser_removed": ({"name": "anna"}, "organiser anna removed"),
    "card_edited": (
        {"card": "Bio-Scanner", "squad": "Ultramarines"},
        "chapter card Bio-Scanner of Ultramarines edited",
    ),
    "cards_added": ({"count": 3}, "shipped chapter cards added to the catalogue: 3"),
    "weapon_edited": ({"weapon": "Melta"}, "weapon Melta edited"),
    "token_values": ({}, "alien token values changed"),
    "event_card_edited": ({"card": "Report In"}, "alien event card Report In edited"),
    "rules_values_edited": ({"item": "Ork"}, "values of Ork changed"),
    "card_changed": (
        {
            "card": {"en": "Blind Grenades", "it": ""},
            "squad": {"en": "Blood Angels", "it": "Angeli Sanguinari"},
            "changes": [["name_it", "", "Granate Accecanti"], ["kind", "equipment", "order"]],
        },
        "chapter card Blind Grenades of Blood Angels changed: Italian name: – → "
        "“Granate Accecanti”; Kind: Equipment → Order",
    ),
    "weapon_changed": (
        {
            "weapon": {"en": "Missile launcher", "it": "Lanciarazzi"},
            "changes": [["name_en", "Missile launcher", "Rocket launcher"]],
        },
        "weapon Missile launcher changed: English name: “Missile launcher” → “Rocket launcher”",
    ),
    "squads_changed": (
        {
            "changes": [
                ["name_it", "Ultramarines", "Ultramarini"],
                [
                    "order",
                    [{"en": "Ultramarines", "it": "Ultramarini"}, {"en": "Blood Angels"}],
                    [{"en": "Blood Angels"}, {"en": "Ultramarines", "it": "Ultramarini"}],
                ],
            ]
        },
        "squads changed: Italian name: “Ultramarines” → “Ultramarini”; Squad order: "
        "Ultramarines, Blood Angels → Blood Angels, Ultramarines",
    ),
    "token_values_changed": (
        {"changes": [["gretchin", 1, 3], ["ork", 2, 8]]},
        "alien token values changed: Gretchin: 1 → 3; Ork: 2 → 8",
    ),
    "rules_values_changed": (
        {
            "item": {"en": "Bolter", "it": "Bolter"},
            "changes": [["dice", {"white": 0, "red": 2}, {"white": 1, "red": 2}]],
        },
        "values of Bolter changed: Dice per shot: 0 white + 2 red → 1 white + 2 red",
    ),
    "event_card_changed": (
        {
            "card": {"en": "Report In", "it": "A Rapporto"},
            "changes": [["name_en", "Report In", "Report!"]],
        },
        "alien event card Report In changed: English name: “Report In” → “Report!”",
    ),
    "house_rules_changed": (
        {
            "changes": [
                [
                    {"path": "events.report.name.en", "en": "Check In", "it": "Fate Rapporto"},
                    "Check In",
                    None,
                ],
                ["tarantula.arc_half_width", None, 2],
                ["units.ork.armour", 1, 2],
            ]
        },
        "house rules changed: English name of alien event card Check In: “Check In” → –; "
        "tarantula.arc_half_width: – → 2; units.ork.armour: 1 → 2",
    ),
    "round_timer": ({}, "round timer"),
    "dispute": (
        {"session": SEMIFINAL_SESSION, "name": "Mariolone"},
        "result of Coppa – Semifinal (3) – session 2, disputed by Mariolone",
    ),
}


def test_every_code_has_a_sample():
    assert set(SAMPLES) == set(DESCRIPTIONS)


@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_each_code_reads_in_english_and_in_italian(code):
    params, english = SAMPLES[code]
    assert description_label(code, params, "stored") == english
    with translation.override("it"):
        italian = description_label(code, params, "stored")
    assert italian != "stored"
    if code not in ("session", "stage"):  # a bare label: only its parts are translated
        assert italian != english, f"no Italian for {DESCRIPTIONS[code].msgid!r}"


def test_labels_of_sessions_and_stages_are_translated():
    with translation.override("it"):
        assert description_label("session", SAMPLES["session"][0], "") == (
            "Coppa – Semifinali (3) – sessione 2"
        )
        assert description_label("stipulation_set", SAMPLES["stipulation_set"][0], "") == (
            "stipulazione di Coppa – Semifinali (3) – sessione 2 impostata a Cattura la Bandiera"
        )


@pytest.mark.parametrize(
    ("code", "params"),
    [
        ("threshold_added", {"points": "30", "session": SEMIFINAL_SESSION}),
        ("threshold_added", {"points": True, "session": SEMIFINAL_SESSION}),
        ("threshold_added", {"session": SEMIFINAL_SESSION}),
        ("threshold_added", ["points", 30]),
        ("session", {"session": {"stage": {"tournament": "Coppa", "kind": "quarterfinal"}}}),
        ("session", {"session": {**SEMIFINAL_SESSION, "number": None}}),
        ("session", {"session": "Coppa – Semifinal (3) – session 2"}),
        ("stipulation_set", {"session": SEMIFINAL_SESSION, "kind": "king_of_the_hill"}),
        ("judge_added", {"name": 7}),
        ("token_values_changed", {"changes": []}),
        ("token_values_changed", {"changes": [["ork", 2]]}),
        ("weapon_changed", {"weapon": "Melta", "changes": [["name_en", "a", "b"]]}),
        ("judge_added", None),
        ("no_such_code", {}),
        ("", {}),
    ],
)
def test_params_that_do_not_fit_and_unknown_codes_show_the_stored_text(code, params):
    assert description_label(code, params, "the stored text") == "the stored text"


def test_describe_refuses_unknown_codes_and_wrong_params():
    with pytest.raises(ValueError, match="unknown activity description 'renamed'"):
        describe("renamed")
    with pytest.raises(ValueError, match=r"takes the params \['name'\], not \['user'\]"):
        describe("judge_added", user="anna")
    with pytest.raises(ValueError, match="king_of_the_hill"):
        describe("stipulation_set", session=SessionFactory(), kind="king_of_the_hill")


def test_an_entry_stores_plain_params_and_english_text_whatever_the_writers_language():
    tournament = TournamentFactory(name="Coppa")
    stage = StageFactory(tournament=tournament, number=3, kind=StageKind.SEMIFINAL)
    session = SessionFactory(stage=stage, number=2)
    with translation.override("it"):
        entry = log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe("threshold_added", points=30, session=session),
            threshold=30,
        )
        assert entry_description(entry) == (
            "soglia di punteggio 30 aggiunta a Coppa – Semifinali (3) – sessione 2"
        )
    entry = ActivityLog.objects.get(pk=entry.pk)
    assert entry.description_code == "threshold_added"
    assert entry.description_params == {"points": 30, "session": SEMIFINAL_SESSION}
    assert entry.object_description == SAMPLES["threshold_added"][1]
    assert entry_description(entry) == SAMPLES["threshold_added"][1]
    # Later changes to the session do not rewrite what the entry says.
    Stage.objects.filter(pk=stage.pk).update(kind=StageKind.FINAL)
    assert entry_description(ActivityLog.objects.get(pk=entry.pk)) == SAMPLES["threshold_added"][1]


def test_free_text_is_stored_and_shown_as_it_is():
    tournament = TournamentFactory(name="Coppa d'Autunno")
    entry = log_activity(tournament, ActivityVerb.CREATED, str(tournament))
    assert (entry.description_code, entry.description_params) == ("", {})
    with translation.override("it"):
        assert entry_description(entry) == "Coppa d'Autunno"
        assert str(entry) == "- ha creato Coppa d'Autunno"


def test_a_service_writing_in_italian_reads_in_english():
    tournament = TournamentFactory()
    player = register_players(tournament, 1)[0]
    account = UserFactory(username="marta")
    with translation.override("it"):
        link_account(tournament, player, account)
    entry = ActivityLog.objects.get(tournament=tournament, details__user=account.pk)
    assert entry.description_params == {"user": "marta", "player": str(player)}
    assert entry_description(entry) == f"account marta linked to {player}"
    with translation.override("it"):
        assert entry_description(entry) == f"account marta collegato a {player}"


def test_an_effect_change_reads_with_the_names_stored_with_it_and_an_older_one_by_its_code():
    card = {"card": {"en": "Life Scanner", "it": "Scanner Vitale"}, "squad": {"en": "X", "it": ""}}
    named = {"code": "medi_kit", "en": "Field Kit", "it": "Kit da Campo"}
    params = {**card, "changes": [["effect_code", "", named]]}
    older = {**card, "changes": [["effect_code", "", "medi_kit"]]}
    assert description_label("card_changed", params, "stored").endswith(
        "Effect on the board: – → Field Kit"
    )
    assert description_label("card_changed", older, "stored").endswith("– → Medi-Kit")
    with translation.override("it"):
        assert description_label("card_changed", params, "stored").endswith("– → Kit da Campo")
        assert description_label("card_changed", older, "stored").endswith("– → Pronto Soccorso")


def test_a_logged_object_reads_as_dice_only_when_it_holds_dice():
    """A house rule set to an empty object, or to an object that is not dice, reads as the
    JSON the organiser wrote, not as "0 white + 0 red"."""
    text = changes_text(
        [
            ["events", None, {}],
            ["units.ork", {"armour": 2}, {"armour": 2, "move": 6}],
            ["weapons.bolter.dice", {"white": 0, "red": 2}, {"red": 3}],
        ]
    )
    assert text == (
        'events: – → “{}”; units.ork: “{"armour": 2}” → “{"armour": 2, "move": 6}”; '
        "weapons.bolter.dice: 0 white + 2 red → 0 white + 3 red"
    )


def test_an_event_cards_effect_reads_in_words_and_what_is_not_known_as_written():
    """An alien event card's effect field reads by its label and a coded value in words
    (dice and yes/no as everywhere); a code, a unit or a weapon the log does not know, or
    a field it has no label for, reads as the organiser wrote it."""
    card = {"en": "Suicide Android", "it": "Androide Suicida"}

    def change(field: str, before: object, after: object) -> list[object]:
        return [{"path": f"events.suicide_android.effect.{field}", **card}, before, after]

    changes = [
        change("code", "self_destruct", "teleport_all"),
        change("dice.red", 2, 3),
        change("firer_dies", None, True),
        change("units", ["android"], ["android", "robot"]),
        change("weapon", "melta", "death_ray"),
        change("limit", "no_orders", "no_dice"),
        change("squares", None, 2),
        change("colour", "red", {"shade": "dark"}),
        change("units", [{"unit": "ork"}], []),
    ]
    assert changes_text(changes) == (
        "Effect of alien event card Suicide Android: an alien explodes → “teleport_all”; "
        "Red dice of the blast of alien event card Suicide Android: 2 → 3; "
        "Death of the firer of alien event card Suicide Android: – → yes; "
        'Aliens affected of alien event card Suicide Android: Android → “["android", "robot"]”; '
        "Special weapon of alien event card Suicide Android: Melta → “death_ray”; "
        "Limit on the chosen player's next turn of alien event card Suicide Android: "
        "no order cards → “no_dice”; "
        "Extra squares of movement of alien event card Suicide Android: – → 2; "
        'effect.colour of alien event card Suicide Android: “red” → “{"shade": "dark"}”; '
        'Aliens affected of alien event card Suicide Android: “[{"unit": "ork"}]” → “[]”'
    )
    with translation.override("it"):
        assert changes_text(changes[:2]) == (
            "Effetto della carta evento alieno Androide Suicida: un Alieno esplode → "
            "“teleport_all”; "
            "Dadi rossi dell'esplosione della carta evento alieno Androide Suicida: 2 → 3"
        )


def test_every_event_effect_and_turn_limit_has_words():
    assert set(EVENT_EFFECTS) == set(EFFECT_CODES)
    assert set(EVENT_TURN_LIMITS) == set(TURN_LIMITS)


def test_the_alien_a_card_brings_reads_by_its_name():
    card = {"en": "Genestealer", "it": "Ladro Genetico"}
    changes = [
        [{"path": "events.genestealer.effect.unit", **card}, "genestealer", "ork"],
        [{"path": "events.genestealer.effect.code", **card}, None, "alien_appears"],
    ]
    assert changes_text(changes) == (
        "Alien that appears of alien event card Genestealer: Genestealer → Ork; "
        "Effect of alien event card Genestealer: – → an alien appears next to a marine of "
        "the chosen player"
    )
    with translation.override("it"):
        assert changes_text(changes[:1]) == (
            "Alieno che compare della carta evento alieno Ladro Genetico: Ladro Genetico → Orco"
        )
