"""Results the game cannot produce are found, each at the entry that holds the value."""

from __future__ import annotations

from django.utils import translation

from rules.engine.maps import load_map
from tournaments.domain.plausibility import (
    AlienPool,
    Fielded,
    SessionLimits,
    aliens_in_play,
    check_result,
    fielded_squad,
    found_weapons,
    map_markers,
    session_limits,
    squad_figures,
)
from tournaments.domain.scoring import (
    AlienTokens,
    DreadnoughtKill,
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    SeatBreakdown,
    TarantulaKill,
)

A, B, C = "1", "2", "3"
NAMES = {A: "Anna", B: "Bruno", C: "Carla"}
FIVE = SessionLimits()


def seats(**entries: dict) -> list[SeatBreakdown]:
    """Breakdowns of seats A, B and C; ``entries`` by seat name (a, b, c)."""
    return [
        SeatBreakdown(seat=seat, **entries.get(key, {}))
        for seat, key in ((A, "a"), (B, "b"), (C, "c"))
    ]


def kill(victim: str, count: int, marine_class=MarineClass.LIGHT) -> MarineKill:
    return MarineKill(victim, marine_class, count)


def loss(count: int, cause=LossCause.ALIEN, marine_class=MarineClass.LIGHT, killer=None):
    return MarineLoss(marine_class, cause, killer, count)


def where(problems) -> list[tuple[str, str, str, int | None, str | None]]:
    return [(p.code, p.seat, p.entry, p.index, p.part) for p in problems]


def test_a_plausible_result_has_no_problem():
    breakdowns = seats(
        a={"kills": (kill(B, 2), kill(B, 1, MarineClass.COMMANDER), kill(C, 2))},
        b={"losses": (loss(2, LossCause.OWN_FIRE),)},
        c={"alien_tokens": (AlienTokens("ork", 2, 1),)},
    )
    assert check_result(breakdowns, [A, C], FIVE, NAMES) == []


def test_one_seat_cannot_kill_more_figures_than_a_squad_has():
    breakdowns = seats(a={"kills": (kill(B, 50),)})
    problems = check_result(breakdowns, [], FIVE, NAMES)
    assert where(problems) == [("kills_over_figures", A, "kills", 0, "count")]
    assert "Anna is recorded killing 50 figures of Bruno" in problems[0].message
    assert "only 5" in problems[0].message


def test_kills_split_over_classes_and_dreadnought_pilots_add_up():
    breakdowns = seats(
        a={
            "kills": (kill(B, 3), kill(B, 2, MarineClass.HEAVY)),
            "dreadnoughts": (DreadnoughtKill(B, 25, MarineClass.HEAVY),),
        }
    )
    problems = check_result(breakdowns, [], FIVE, NAMES)
    assert where(problems) == [
        ("kills_over_figures", A, "kills", 0, "count"),
        ("kills_over_figures", A, "kills", 1, "count"),
        ("kills_over_figures", A, "dreadnoughts", 0, "count"),
    ]


def test_extended_tpk_squads_have_seven_figures():
    breakdowns = seats(a={"kills": (kill(B, 7),)})
    assert check_result(breakdowns, [], SessionLimits(figures=7), NAMES) == []
    assert check_result(seats(a={"kills": (kill(B, 8),)}), [], SessionLimits(figures=7), NAMES)
    assert squad_figures("extended_tpk") == 7
    assert squad_figures("tpk") == squad_figures("alien_hunt") == 5


def test_every_death_of_a_squad_counts_towards_its_figures():
    breakdowns = seats(
        a={"kills": (kill(C, 3),)},
        b={"kills": (kill(C, 2),)},
        c={"losses": (loss(1),)},
    )
    problems = check_result(breakdowns, [], FIVE, NAMES)
    assert where(problems) == [
        ("deaths_over_figures", A, "kills", 0, "count"),
        ("deaths_over_figures", B, "kills", 0, "count"),
        ("deaths_over_figures", C, "losses", 0, "count"),
    ]
    assert "6 figures of Carla are recorded dead in all (Anna 3, Bruno 2" in problems[0].message


def test_both_records_of_one_kill_count_once():
    """The API records a kill on both sides: the killer's kill and the victim's loss."""
    breakdowns = seats(
        a={"kills": (kill(B, 4),)},
        b={"losses": (loss(4, LossCause.PLAYER, killer=A), loss(1))},
    )
    assert check_result(breakdowns, [], FIVE, NAMES) == []


def test_a_squad_has_one_commander():
    breakdowns = seats(a={"kills": (kill(B, 2, MarineClass.COMMANDER),)})
    assert [p.code for p in check_result(breakdowns, [], FIVE, NAMES)] == ["commander_twice"]
    breakdowns = seats(
        a={"kills": (kill(B, 1, MarineClass.COMMANDER),)},
        b={"losses": (loss(1, marine_class=MarineClass.COMMANDER),)},
    )
    problems = check_result(breakdowns, [], FIVE, NAMES)
    assert {p.code for p in problems} == {"commander_dead_twice"}
    assert len(problems) == 2


def test_a_squad_all_dead_has_no_marine_in_play():
    breakdowns = seats(a={"kills": (kill(B, 3),)}, c={"kills": (kill(B, 2),)})
    problems = check_result(breakdowns, [A, B], FIVE, NAMES)
    assert where(problems) == [("survivor_all_dead", B, "survived", None, None)]
    assert "untick it" in problems[0].message
    assert check_result(breakdowns, [A], FIVE, NAMES) == []


def test_no_tokens_without_aliens():
    pool = SessionLimits(aliens=AlienPool(in_play=False))
    breakdowns = seats(b={"alien_tokens": (AlienTokens("ork", 2, 1), AlienTokens("ork", 2, 1))})
    problems = check_result(breakdowns, [], pool, NAMES)
    assert where(problems) == [
        ("tokens_without_aliens", B, "alien_tokens", 0, "count"),
        ("tokens_without_aliens", B, "alien_tokens", 1, "count"),
    ]
    assert "played without aliens" in problems[0].message


def test_no_marine_lost_to_aliens_without_aliens():
    """Decision 30: the result's checks refuse it, so the JSON breakdowns and an import do
    too, not only the judge's form."""
    pool = SessionLimits(aliens=AlienPool(in_play=False))
    own_fire = loss(1, LossCause.OWN_FIRE)
    breakdowns = seats(c={"losses": (own_fire, loss(1), loss(0, marine_class=MarineClass.HEAVY))})
    problems = check_result(breakdowns, [], pool, NAMES)
    assert where(problems) == [("losses_without_aliens", C, "losses", 1, "count")]
    assert "no marine can be lost to aliens" in problems[0].message
    assert not check_result(breakdowns, [], SessionLimits(), NAMES)


def test_tokens_are_bounded_by_the_markers_of_the_map():
    pool = SessionLimits(aliens=AlienPool(markers={"ork": 2}, map_name="derelict"))
    breakdowns = seats(
        a={"alien_tokens": (AlienTokens("ork", 2, 2),)},
        b={"alien_tokens": (AlienTokens("ork", 2, 1), AlienTokens("android", 5, 1))},
    )
    problems = check_result(breakdowns, [], pool, NAMES)
    assert where(problems) == [
        ("tokens_over_markers", B, "alien_tokens", 1, "count"),
        ("tokens_over_markers", A, "alien_tokens", 0, "count"),
        ("tokens_over_markers", B, "alien_tokens", 0, "count"),
    ]
    assert "3 Ork tokens are recorded in all (Anna 2, Bruno 1)" in problems[1].message
    assert "the map derelict has only 0 Android markers" in problems[0].message


def test_tokens_the_board_game_revealed_count_beside_the_markers():
    """A game on the judge's board may reveal more tokens of a type than the map has
    markers (a Solitaire pile, reinforcements): the larger of the two bounds the result."""
    pool = SessionLimits(
        aliens=AlienPool(
            markers={"ork": 2, "android": 1}, map_name="derelict", revealed={"android": 3}
        )
    )
    within = seats(
        a={"alien_tokens": (AlienTokens("android", 5, 2),)},
        b={"alien_tokens": (AlienTokens("android", 5, 1), AlienTokens("ork", 2, 2))},
    )
    assert not check_result(within, [], pool, NAMES)
    over = seats(
        a={"alien_tokens": (AlienTokens("android", 5, 3), AlienTokens("ork", 2, 3))},
        b={"alien_tokens": (AlienTokens("android", 5, 1),)},
    )
    problems = check_result(over, [], pool, NAMES)
    assert where(problems) == [
        ("tokens_over_markers", A, "alien_tokens", 0, "count"),
        ("tokens_over_markers", B, "alien_tokens", 0, "count"),
        ("tokens_over_markers", A, "alien_tokens", 1, "count"),
    ]
    assert (
        "4 Android tokens are recorded in all (Anna 3, Bruno 1), but the game on the judge's "
        "board revealed only 3 Android tokens" in problems[0].message
    )
    assert "the map derelict has only 2 Ork markers" in problems[2].message


def test_token_values_come_from_the_rules_data():
    pool = SessionLimits(
        aliens=AlienPool(values={"ork": frozenset({2}), "dreadnought": frozenset({25, 30})})
    )
    breakdowns = seats(
        a={
            "alien_tokens": (
                AlienTokens("ork", 5, 1),
                AlienTokens("dreadnought", 30, 1),
                AlienTokens("dreadnought", 27, 1),
                AlienTokens("ork_boss", 8, 1),
                AlienTokens("genestealer", 0, 1),
            )
        }
    )
    problems = check_result(breakdowns, [], pool, NAMES)
    assert where(problems) == [
        ("token_value", A, "alien_tokens", 0, "value"),
        ("token_value", A, "alien_tokens", 2, "value"),
        ("unknown_alien", A, "alien_tokens", 3, "alien_type"),
    ]
    assert "Ork tokens are worth 2 points each in this tournament, not 5" in problems[0].message
    assert "25 or 30" in problems[1].message


def test_session_limits_read_the_stipulation_the_map_and_the_rules_data():
    assert not aliens_in_play("tpk", {"aliens": False})
    assert aliens_in_play("catch_the_flag", {"aliens": True})
    assert aliens_in_play("alien_hunt", {})
    board = load_map("hunt-derelict")
    limits = session_limits("alien_hunt", {}, "hunt-derelict", {"alien_tokens": {"ork": 3}}, board)
    assert limits.figures == 5
    assert limits.aliens.markers == map_markers(board)
    assert limits.aliens.markers["ork"] == 5
    assert limits.aliens.values["ork"] == frozenset({3})
    assert limits.aliens.values["dreadnought"] == frozenset({25, 30, 35, 40})
    assert "genestealer" not in limits.aliens.values
    assert limits.aliens.default_value("ork") == 3
    assert limits.aliens.default_value("dreadnought") is None
    unknown = session_limits("tpk", {"aliens": True}, "Mappa del circolo", None)
    assert unknown.aliens.markers is None
    broken = session_limits("alien_hunt", {}, "", {"units": {"nobody": 1}})
    assert broken.aliens.values is None
    assert session_limits("tpk", {}, "hunt-derelict", None, board).aliens.in_play is False


def test_a_count_of_none_is_left_to_scoring():
    breakdowns = seats(a={"kills": (kill(B, 0),), "alien_tokens": (AlienTokens("x", 1, 0),)})
    assert check_result(breakdowns, [], SessionLimits(aliens=AlienPool(in_play=False)), NAMES) == []


def test_a_negative_count_is_refused_where_it_is():
    breakdowns = seats(
        a={"kills": (kill(B, -3),), "alien_tokens": (AlienTokens("ork", 2, -4),)},
        b={"losses": (loss(-2, LossCause.OWN_FIRE),), "tarantulas": (TarantulaKill(C, -1),)},
    )
    problems = check_result(breakdowns, [], FIVE, NAMES)
    assert where(problems) == [
        ("negative_count", A, "kills", 0, "count"),
        ("negative_count", A, "alien_tokens", 0, "count"),
        ("negative_count", B, "losses", 0, "count"),
        ("negative_count", B, "tarantulas", 0, "count"),
    ]
    assert "A count cannot be negative (-3 here)" in problems[0].message


# -- what each squad fielded (its loadout) ---------------------------------------------------

#: Bruno's squad ("Nova" in QA's report): three heavy weapons and a laser rifle.
NOVA = Fielded(heavy=3, light=1)
FIELDED = SessionLimits(fielded={B: NOVA})


def messages(problems) -> list[str]:
    return list(dict.fromkeys(problem.message for problem in problems))


def test_one_heavy_weapon_marine_more_than_the_loadout_armed_is_refused():
    """QA: 3 heavy-weapon kills of Nova recorded, and a 4th by another player was saved."""
    breakdowns = seats(
        a={"kills": (kill(B, 3, MarineClass.HEAVY),)},
        c={"kills": (kill(B, 1, MarineClass.HEAVY),)},
    )
    problems = check_result(breakdowns, [], FIELDED, NAMES)
    assert where(problems) == [
        ("heavy_over_fielded", A, "kills", 0, "count"),
        ("heavy_over_fielded", C, "kills", 0, "count"),
    ]
    assert messages(problems) == [
        "Bruno fielded 3 heavy-weapon marines, but 4 are recorded killed (Anna 3, Carla 1); "
        "correct the kills or losses that are too many."
    ]
    assert check_result(breakdowns, [], FIVE, NAMES) == [], "no loadout: not checked"
    three = seats(
        a={"kills": (kill(B, 2, MarineClass.HEAVY),)}, c={"kills": (kill(B, 1, "heavy"),)}
    )
    assert check_result(three, [], FIELDED, NAMES) == []


def test_every_killer_counts_aliens_and_own_fire_too():
    breakdowns = seats(
        a={"kills": (kill(B, 1),)},
        b={
            "losses": (
                loss(1, LossCause.PLAYER, killer=A),  # the same kill, recorded by the victim
                loss(1, LossCause.ALIEN),
                loss(1, LossCause.OWN_FIRE),
            )
        },
    )
    problems = check_result(breakdowns, [], FIELDED, NAMES)
    assert where(problems) == [
        ("light_over_fielded", A, "kills", 0, "count"),
        ("light_over_fielded", B, "losses", 1, "count"),
        ("light_over_fielded", B, "losses", 2, "count"),
    ]
    assert messages(problems) == [
        "Bruno fielded 1 light-weapon marine, but 3 are recorded killed (Anna 1, aliens 1, "
        "own fire 1); correct the kills or losses that are too many."
    ]


def test_dreadnought_pilots_count_by_their_weapon_and_gunners_as_any_marine():
    pilots = seats(
        a={
            "kills": (kill(B, 2, MarineClass.HEAVY),),
            "dreadnoughts": (DreadnoughtKill(B, 25, MarineClass.HEAVY),),
        },
        c={"dreadnoughts": (DreadnoughtKill(B, 25, MarineClass.HEAVY),)},
    )
    assert [p.code for p in check_result(pilots, [], FIELDED, NAMES)] == ["heavy_over_fielded"] * 3
    # Five gunners of a squad of four marines: no kind is over, the marines in all are.
    gunners = seats(
        a={"kills": (kill(B, 3, MarineClass.GUNNER),)},
        c={"kills": (kill(B, 2, MarineClass.GUNNER),)},
    )
    problems = check_result(gunners, [], FIELDED, NAMES)
    assert [p.code for p in problems] == ["marines_over_fielded"] * 2
    assert messages(problems) == [
        "Bruno fielded 4 marines besides the commander, but 5 are recorded killed (Anna 3, "
        "Carla 2); correct the kills or losses that are too many."
    ]
    assert check_result(gunners, [], FIVE, NAMES) == [], "five figures: allowed without loadout"


def test_extra_heavy_weapons_come_from_the_loadout_and_the_special_equipment():
    breakdowns = seats(a={"kills": (kill(B, 2, MarineClass.EXTRA_HEAVY),)})
    problems = check_result(breakdowns, [], FIELDED, NAMES)
    assert messages(problems) == [
        "Bruno fielded 0 extra-heavy-weapon marines, but 2 are recorded killed (Anna 2); "
        "correct the kills or losses that are too many."
    ]
    found = SessionLimits(fielded={B: NOVA}, found_weapons=1)
    problems = check_result(breakdowns, [], found, NAMES)
    assert messages(problems) == [
        "Bruno fielded 0 extra-heavy-weapon marines and the session's special equipment "
        "hides 1 extra-heavy weapon, but 2 are recorded killed (Anna 2); correct the kills "
        "or losses that are too many."
    ]
    one = seats(a={"kills": (kill(B, 1, MarineClass.EXTRA_HEAVY), kill(B, 3, "heavy"))})
    assert check_result(one, [], found, NAMES) == [], "a heavy marine picked up the weapon"
    # ... but then only two heavy-weapon marines are left to die as such.
    four = seats(
        a={"kills": (kill(B, 1, MarineClass.EXTRA_HEAVY), kill(B, 3, "heavy"))},
        c={"kills": (kill(B, 1, MarineClass.LIGHT),)},
    )
    assert [p.code for p in check_result(four, [], found, NAMES)] == ["marines_over_fielded"] * 3
    extended = SessionLimits(figures=7, fielded={B: Fielded(heavy=2, light=2, extra_heavy=2)})
    assert check_result(seats(a={"kills": (kill(B, 2, "extra_heavy"),)}), [], extended, NAMES) == []


def test_a_total_explained_by_one_kind_is_reported_once_the_rest_all_at_once():
    """Every broken rule is listed in one go: a kind over what the squad fielded stands
    for the squad's total, and one seat's impossible count does not hide the others'."""
    breakdowns = seats(
        a={"kills": (kill(B, 5, MarineClass.HEAVY), kill(C, 6))},
        b={"losses": (loss(5, LossCause.PLAYER, MarineClass.HEAVY, killer=A), loss(1))},
        c={
            "losses": (
                loss(6, LossCause.PLAYER, killer=A),
                loss(2, LossCause.ALIEN),
                loss(2, LossCause.ALIEN, MarineClass.COMMANDER),
            )
        },
    )
    limits = SessionLimits(fielded={B: NOVA}, aliens=AlienPool(in_play=False))
    breakdowns[1] = SeatBreakdown(
        seat=B, losses=breakdowns[1].losses, alien_tokens=(AlienTokens("ork", 2, 1),)
    )
    problems = check_result(breakdowns, [B, C], limits, NAMES)
    assert sorted({p.code for p in problems}) == [
        "commander_dead_twice",
        "deaths_over_figures",
        "heavy_over_fielded",
        "kills_over_figures",
        "losses_without_aliens",
        "survivor_all_dead",
        "tokens_without_aliens",
    ]
    # Anna's 6 of Carla are one problem; with them made 5 at most, 4 more are still over.
    total = next(p for p in problems if p.code == "deaths_over_figures")
    assert "10 figures of Carla are recorded dead in all (Anna 6, aliens or own fire 4)" in (
        total.message
    )
    # Bruno's 5 heavy-weapon marines: their own message, not also one on his total of 6
    # (with 3 at most, his figures are within his squad's).
    assert not any("figures of Bruno" in p.message for p in problems)
    assert {p.seat for p in problems if p.code == "survivor_all_dead"} == {B, C}


def test_one_seat_over_a_whole_squad_is_not_reported_twice():
    breakdowns = seats(
        a={"kills": (kill(B, 6),)},
        b={"losses": (loss(6, LossCause.PLAYER, killer=A),)},
    )
    assert {p.code for p in check_result(breakdowns, [], FIVE, NAMES)} == {"kills_over_figures"}


def test_the_message_reads_in_italian():
    breakdowns = seats(
        a={"kills": (kill(B, 3, MarineClass.HEAVY),)},
        c={"kills": (kill(B, 1, MarineClass.HEAVY),)},
        b={"losses": (loss(1, LossCause.ALIEN, MarineClass.EXTRA_HEAVY),)},
    )
    with translation.override("it"):
        found = messages(check_result(breakdowns, [], FIELDED, NAMES))
    assert found == [
        "Bruno ha schierato 3 marine con arma pesante, ma ne risultano uccisi 4 (Anna 3, "
        "Carla 1); correggi le uccisioni o le perdite in eccesso.",
        "Bruno ha schierato 0 marine con arma extra-pesante, ma ne risulta ucciso 1 "
        "(alieni 1); correggi le uccisioni o le perdite in eccesso.",
    ]


def test_what_a_squad_fielded_is_read_from_its_loadout_when_it_arms_every_marine():
    assert fielded_squad(["heavy", "light", "heavy", "heavy"], 5) == NOVA
    extended = fielded_squad(["heavy", "light", "light", "light", "extra_heavy", "extra_heavy"], 7)
    assert extended == Fielded(heavy=1, light=3, extra_heavy=2)
    assert extended.marines == 6
    assert fielded_squad(["heavy", "light", "light"], 5) is None, "a marine unarmed by it"
    assert fielded_squad(["heavy", "light", "light", "light"], 7) is None, "no extra marines"
    assert fielded_squad(["heavy", "light", None, "light"], 5) is None, "a weapon not known"
    assert fielded_squad(["heavy", "light", "close", "light"], 5) is None
    equipment = {
        "4,7": "lascannon",
        "5,5": "tarantula",
        "9,2": "melta",
        "1,1": "abandoned_dreadnought",
    }
    assert found_weapons({"equipment_blips": equipment}) == 2
    assert found_weapons({}) == found_weapons(None) == 0
    limits = session_limits("tpk", {"equipment_blips": equipment}, "", None, fielded={B: NOVA})
    assert limits.fielded == {B: NOVA}
    assert limits.found_weapons == 2
    assert session_limits("tpk", {}, "", None).fielded == {}


def test_kills_and_the_victims_losses_agree_when_both_are_typed():
    breakdowns = seats(
        a={
            "kills": (kill(B, 2), kill(C, 1, MarineClass.COMMANDER)),
            "dreadnoughts": (DreadnoughtKill(C, 25, MarineClass.HEAVY),),
        },
        b={"losses": (loss(1, LossCause.PLAYER, killer=A),)},
        c={"losses": (loss(1, LossCause.PLAYER, MarineClass.HEAVY, killer=A),)},
    )
    assert check_result(breakdowns, [A], FIVE, NAMES) == [], "the form types a kill once"
    problems = check_result(breakdowns, [A], FIVE, NAMES, both_sides=True)
    assert where(problems) == [
        ("kills_losses_differ", A, "kills", 0, "count"),
        ("kills_losses_differ", B, "losses", 0, "count"),
        ("kills_losses_differ", A, "kills", 1, "count"),
    ]
    assert problems[0].message == (
        "Anna is recorded killing 2 of Bruno's figures worth “light-weapon marine”, but Bruno "
        "records losing 1 of them to Anna; what one seat gains from a kill the other loses, "
        "so correct one of the two records."
    )
