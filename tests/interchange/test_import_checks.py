"""import_document checks everything first, lists every problem by JSON path, writes nothing."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzzing import JSON_VALUES, locations, replaced
from tournaments.interchange import importer
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.interchange.problems import InterchangeError, Problem, json_path
from tournaments.models import DiceRoll, Player, ResultVersion, Tournament


def messages(problems: list[Problem]) -> dict[str, str]:
    return {problem.path: problem.message for problem in problems}


def fresh(document: dict) -> dict:
    """A copy that would import cleanly next to the original (another slug)."""
    doc = copy.deepcopy(document)
    doc["tournament"]["slug"] = "other-slug"
    return doc


def test_json_path_formatting():
    assert json_path(["stages", 1, "sessions", 0, "seats", 2, "player"]) == (
        "$.stages[1].sessions[0].seats[2].player"
    )
    assert json_path(["details", "odd key", "it's"]) == "$.details['odd key']['it\\'s']"
    assert str(Problem("$.a", "bad")) == "$.a: bad"


def test_a_clean_copy_has_no_problems(document):
    assert check_document(fresh(document)) == []


def test_existing_slug_is_refused(document):
    assert messages(check_document(document)) == {
        "$.tournament.slug": 'a tournament with slug "bob-2025" already exists; delete it '
        "first or import under another slug (--slug on the command line, the short name field "
        "on the import page)"
    }


def test_not_an_object_wrong_format_and_wrong_version():
    assert check_document([1, 2])[0].path == "$"
    assert "not a BoB tournament document" in check_document({"format": "x"})[0].message
    problems = check_document({"format": "bob-tournament", "format_version": 13})
    assert len(problems) == 1
    assert problems[0].path == "$.format_version"
    assert "format version 13 is not supported; this BoB reads versions 1, 2" in problems[0].message


def test_schema_violations_are_listed_with_paths(document):
    doc = fresh(document)
    del doc["tournament"]["name"]
    doc["stages"][0]["sessions"][1]["seats"][0]["seat_order"] = "first"
    doc["players"][2]["surname"] = "Rossi"
    doc["dice_rolls"][0]["kind"] = "d7"
    found = messages(check_document(doc))
    assert found["$.tournament"] == (
        'the field "name" is missing; add it (null, "", [] or {} say "nothing")'
    )
    assert found["$.stages[0].sessions[1].seats[0].seat_order"] == (
        '"first" is not a whole number; write a whole number here'
    )
    assert found["$.players[2]"].startswith(
        'unknown field "surname"; remove it (the fields here: id,'
    )
    assert found["$.dice_rolls[0].kind"] == (
        '"d7" is not allowed here; use one of "d3", "d6", "d12", "white", "red"'
    )


def test_every_semantic_problem_is_listed(document):
    doc = fresh(document)
    prelim = doc["stages"][0]
    session = prelim["sessions"][0]
    session["seats"][2]["player"] = "p12"
    prelim["sessions"][1]["seats"].pop()
    prelim["sessions"][1]["seats"].pop()
    doc["squads"][1]["slug"] = "ultramarines"
    doc["players"][3]["id"] = "p1"
    versions = session["result"]["versions"]
    versions[2]["number"] = 4
    versions[1]["ranking"] = ["p1", "p9", "p1"]
    versions[0]["breakdown"][1]["kills"][0]["victim"] = "p8"
    doc["honours"][0]["squad"] = "space-wolves"
    doc["honours"][1]["session"] = {"stage": 1, "session": 9}
    doc["score_bonuses"][0]["used_in"] = {"stage": 5, "session": 1}
    final_seats = doc["stages"][1]["sessions"][0]["seats"]
    final_seats[0]["loadout"]["marine_weapons"][1] = "flamer"
    final_seats[0]["loadout"]["order_cards"][0] = "blood-angels-order-0"
    final_seats[1]["squad"] = final_seats[0]["squad"]
    doc["stages"][1]["sessions"][1]["number"] = 1
    doc["stages"][0]["thresholds"] = [20, 20]
    doc["stages"][0]["stipulation_params"] = {"end_condition": "fixed_rounds"}
    doc["dice_rolls"][1]["values"] = [7]
    doc["dice_rolls"][2]["seed_commitment"] = "0" * 64
    doc["dice_rolls"][2]["sequence"] = 0
    doc["dice_rolls"][4]["seed"] = "5"
    doc["players"][0]["preferences"][1]["stage"] = 3
    doc["players"][1]["preferences"][0]["choices"] = ["ultramarines", "ultramarines"]
    doc["activity"][0]["verb"] = "danced"
    doc["activity"][1]["created_at"] = "yesterday"
    doc["squad_ranks"][1]["player"] = "p1"

    found = messages(check_document(doc))
    expected = {
        "$.stages[0].sessions[0].seats[2].player": 'unknown player "p12"',
        "$.stages[0].sessions[1].seats": "this session has 1 seat; it needs 2 or 3",
        "$.squads[1].slug": 'squad slug "ultramarines" is used twice (first at $.squads[0].slug)',
        "$.players[3].id": 'player id "p1" is used twice (first at $.players[0].id)',
        "$.stages[0].sessions[0].result.versions[2].number": "its number must be 3, not 4",
        "$.stages[0].sessions[0].result.versions[1].ranking[1]": 'player "p9" is not seated',
        "$.stages[0].sessions[0].result.versions[1].ranking[2]": 'player "p1" is used twice',
        "$.stages[0].sessions[0].result.versions[0].breakdown[1].kills[0].victim": (
            'player "p8" is not seated in this session'
        ),
        "$.honours[0].squad": 'unknown squad "space-wolves"',
        "$.honours[1].session.session": "stage 1 has no session 9",
        "$.score_bonuses[0].used_in.stage": "there is no stage 5",
        "$.stages[1].sessions[0].seats[0].loadout.marine_weapons[1]": 'unknown weapon "flamer"',
        "$.stages[1].sessions[0].seats[0].loadout.order_cards[0]": (
            'squad "imperial-fists" has no order card "blood-angels-order-0"'
        ),
        "$.stages[1].sessions[0].seats[1].squad": 'squad "imperial-fists" is used twice',
        "$.stages[1].sessions[1].number": "session number 1 is used twice",
        "$.stages[0].thresholds[1]": "threshold 20 is used twice",
        "$.stages[0].stipulation_params": "rounds",
        "$.dice_rolls[1].values[0]": "a d6 cannot show 7 (allowed: 1, 2, 3, 4, 5, 6)",
        "$.dice_rolls[2].seed_commitment": "not the SHA-256 commitment of seed 123456789",
        "$.dice_rolls[2].sequence": "is used twice",
        "$.dice_rolls[4].seed": "physical (scripted) dice have no seed",
        "$.players[0].preferences[1].stage": "there is no stage 3",
        "$.players[1].preferences[0].choices[1]": 'squad choice "ultramarines" is used twice',
        "$.activity[0].verb": 'unknown action "danced"',
        "$.activity[1].created_at": '"yesterday" is not a date and time with a time zone',
        "$.squad_ranks[1].player": 'ranked player "p1" is used twice',
    }
    for path, text in expected.items():
        assert path in found, f"no problem reported at {path}; got {sorted(found)}"
        assert text in found[path], (path, found[path])


def test_names_the_player_forms_refuse_are_refused_by_the_import_too(document):
    """QA: a blank name, and two registered players called or shown alike but for the case,
    were imported, though the forms and the roster refuse them (decision 36)."""
    doc = fresh(document)
    players = [player for player in doc["players"] if player["number"] is not None]
    first, second, third = players[0], players[1], players[2]
    first["name"] = "   "
    second["name"], second["nickname"] = "Mario Rossi", ""
    third["name"], third["nickname"] = "MARIO ROSSI", ""
    index = {id(player): number for number, player in enumerate(doc["players"])}
    found = messages(check_document(doc))
    assert (
        found[f"$.players[{index[id(first)]}].name"] == "the name is blank; every player needs one"
    )
    assert found[f"$.players[{index[id(third)]}].name"] == (
        f'"MARIO ROSSI" is also the name of the player at $.players[{index[id(second)]}] '
        "(ignoring case); registered players' names are unique: add a surname or an initial"
    )
    third["name"], third["nickname"] = "Mario Bianchi", "mario rossi"
    assert messages(check_document(doc))[f"$.players[{index[id(third)]}].nickname"] == (
        f'the player at $.players[{index[id(second)]}] already shows as "mario rossi" (the '
        "nickname, else the name, ignoring case); choose another nickname"
    )


def test_names_the_catalogue_and_tournament_forms_refuse_are_refused_too(document):
    """QA: a blank tournament or squad name, and a squad or weapon named as another one (in
    either language, ignoring case), were imported though the forms refuse them
    (decisions 47 and 59)."""
    doc = fresh(document)
    doc["tournament"]["name"] = "  "
    doc["squads"][0]["name_it"] = ""
    doc["squads"][2]["name_en"] = doc["squads"][1]["name_it"].upper()
    doc["weapons"][1]["name_it"] = doc["weapons"][0]["name_en"]
    doc["weapons"][0]["name_it"] = doc["weapons"][0]["name_en"]  # its own name twice: fine
    assert messages(check_document(doc)) == {
        "$.tournament.name": "the tournament's name is blank; write it",
        "$.squads[0].name_it": "the name is blank; write one",
        "$.squads[2].name_en": f"{json.dumps(doc['squads'][2]['name_en'])} is also a name of "
        "$.squads[1] (in either language, ignoring case); give each its own name",
        "$.weapons[1].name_it": f"{json.dumps(doc['weapons'][1]['name_it'])} is also a name of "
        "$.weapons[0] (in either language, ignoring case); give each its own name",
    }


def test_dates_outside_the_years_of_an_event_are_refused_as_the_forms_refuse_them(document):
    """QA: a tournament starting in year 1 was imported (decision 57)."""
    doc = fresh(document)
    doc["tournament"]["starts_on"] = "0001-01-01"
    session = doc["stages"][0]["sessions"][0]
    session["scheduled_at"] = "2999-05-01T15:00:00+00:00"
    found = messages(check_document(doc))
    assert found["$.tournament.starts_on"] == (
        "give a date between the years 1990 and 2100; this one is in 1"
    )
    assert found["$.stages[0].sessions[0].scheduled_at"] == (
        "give a date between the years 1990 and 2100; this one is in 2999"
    )


def test_nothing_is_written_when_anything_is_wrong(document):
    doc = fresh(document)
    doc["stages"][1]["sessions"][0]["seats"][2]["player"] = "nobody"
    counts = (Tournament.objects.count(), Player.objects.count(), DiceRoll.objects.count())
    with pytest.raises(InterchangeError) as error:
        import_document(doc)
    assert [str(problem) for problem in error.value.problems] == [
        '$.stages[1].sessions[0].seats[2].player: unknown player "nobody"; '
        "use the id of an entry in $.players"
    ]
    assert (Tournament.objects.count(), Player.objects.count(), DiceRoll.objects.count()) == counts


def test_a_failure_while_writing_rolls_everything_back(document, monkeypatch):
    def explode(self, tournament):
        raise RuntimeError("disk full")

    monkeypatch.setattr(importer._Writer, "_activity", explode)
    counts = (Tournament.objects.count(), Player.objects.count(), ResultVersion.objects.count())
    with pytest.raises(RuntimeError):
        import_document(fresh(document))
    assert (
        Tournament.objects.count(),
        Player.objects.count(),
        ResultVersion.objects.count(),
    ) == counts


def fuzzing(examples: int):
    """Hypothesis settings of the damage tests (their fixtures are built once per test)."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


def check_damaged(document: dict, data: st.DataObject) -> None:
    """Replace any part of ``document`` by any JSON: problems are reported, never a crash;
    when nothing is reported the document really imports."""
    doc = fresh(document)
    places = [path for path in locations(doc) if path and path[0] != "format_version"]
    replaced(doc, data.draw(st.sampled_from(places)), data.draw(JSON_VALUES))
    problems = check_document(json.loads(json.dumps(doc)))
    assert all(isinstance(problem, Problem) for problem in problems)
    if problems == []:
        import_document(doc)


@fuzzing(150)
@given(data=st.data())
def test_checks_never_crash_on_any_damage(document, data):
    """Replace any part of a good document by any JSON: problems are reported, never a crash."""
    check_damaged(document, data)


def test_a_game_whose_session_names_a_list_is_a_problem_not_a_crash(document):
    """Found by the fuzzer above: a list where a game's stage number goes."""
    doc = fresh(document)
    assert doc["games"], "the fixture's document should hold a board game"
    doc["games"][0]["session"]["stage"] = [1]
    problems = check_document(json.loads(json.dumps(doc)))
    assert problems and all(isinstance(problem, Problem) for problem in problems)
    assert any(problem.path.startswith("$.games[0].session") for problem in problems), problems


def test_a_database_refusal_is_reported_not_raised(document, monkeypatch):
    from django.db import IntegrityError

    def refuse(self, tournament):
        raise IntegrityError("UNIQUE constraint failed: tournaments_tournament.slug")

    monkeypatch.setattr(importer._Writer, "_squads", refuse)
    with pytest.raises(InterchangeError) as error:
        import_document(fresh(document))
    assert "the database refused the data (UNIQUE constraint failed" in str(error.value)
    assert not Tournament.objects.filter(slug="other-slug").exists()


@pytest.mark.parametrize("version", [0, -1])
def test_a_seats_points_that_do_not_read_are_refused_at_their_place(document, version):
    """A count of "" was imported, and the version stored with no points at all: its
    session counted for nothing in the standings. Earlier versions too must read."""
    doc = fresh(document)
    versions = doc["stages"][0]["sessions"][0]["result"]["versions"]
    versions[version]["breakdown"][1]["kills"][0]["count"] = ""
    found = messages(check_document(doc))
    place = f"$.stages[0].sessions[0].result.versions[{version % len(versions)}].breakdown[1]"
    assert "this seat's points do not read as BoB scores them (" in found[place]
    assert "'count'" in found[place]
    with pytest.raises(InterchangeError):
        import_document(doc)


def test_an_impossible_latest_result_is_refused_at_its_json_paths(document):
    """The judge's plausibility checks, by JSON path: 50 kills of a five-figure squad, a
    survivor whose squad is all dead and tokens in a session without aliens (a token
    value other than the tournament's present one is what the judge saved before the
    organiser changed it: tests/interchange/test_changed_settings.py)."""
    doc = fresh(document)
    prelim = doc["stages"][0]["sessions"][0]
    latest = prelim["result"]["versions"][-1]
    first, second = latest["breakdown"][0], latest["breakdown"][1]
    first["kills"][0]["count"] = 50
    second["losses"][0]["count"] = 4  # with p1's 50: Bruno is all dead
    latest["survivors"] = [second["seat"]]
    prelim["result"]["versions"][0]["breakdown"][0]["kills"][0]["count"] = 40  # history
    final = doc["stages"][1]["sessions"][0]
    final["stipulation"]["params"]["aliens"] = False
    final["result"] = copy.deepcopy(prelim["result"])
    final["result"]["versions"] = [final["result"]["versions"][0]]
    final["result"]["versions"][0]["breakdown"][0]["kills"][0]["count"] = 1
    found = messages(check_document(doc))
    base = "$.stages[0].sessions[0].result.versions[2]"
    assert set(found) >= {
        f"{base}.breakdown[0].kills[0].count",
        f"{base}.survivors[0]",
    }
    assert "killing 50 figures" in found[f"{base}.breakdown[0].kills[0].count"]
    assert "untick it" in found[f"{base}.survivors[0]"]
    history = "$.stages[0].sessions[0].result.versions[0]"
    assert not any(path.startswith(history) for path in found), "earlier versions are history"
    without_aliens = "$.stages[1].sessions[0].result.versions[0].breakdown[0].alien_tokens[0]"
    assert "played without aliens" in found[f"{without_aliens}.count"]
    with pytest.raises(InterchangeError):
        import_document(doc)


def test_a_loss_to_aliens_in_a_session_without_aliens_is_refused_at_its_path(document):
    doc = fresh(document)
    final, breakdown = final_result(doc)
    final["stipulation"]["params"]["aliens"] = False
    latest = 0
    assert not messages(check_document(doc))
    breakdown[1]["losses"] = [
        {"marine_class": "light", "cause": "own_fire", "killer": None, "count": 1},
        {"marine_class": "light", "cause": "alien", "killer": None, "count": 1},
    ]
    at = 1
    found = messages(check_document(doc))
    version = f"$.stages[1].sessions[0].result.versions[{latest}]"
    path = f"{version}.breakdown[1].losses[{at}].count"
    assert list(found) == [path]
    assert "no marine can be lost to aliens" in found[path]
    with pytest.raises(InterchangeError):
        import_document(doc)


def test_a_marine_left_on_the_board_imports_and_keeps_its_cause(document):
    """Format 12: a loss's cause may be ``left_on_board`` (game engine decision 33)."""
    doc = fresh(document)
    final, breakdown = final_result(doc)
    breakdown[1]["losses"] = [
        {"marine_class": "light", "cause": "left_on_board", "killer": None, "count": 1}
    ]
    assert not messages(check_document(doc))
    tournament = import_document(doc).tournament
    version = ResultVersion.objects.get(
        result__session__stage__tournament=tournament, result__session__stage__number=2
    )
    assert version.breakdown[1]["losses"][0]["cause"] == "left_on_board"
    assert (
        export_tournament(tournament)["stages"][1]["sessions"][0]["result"]["versions"][0][
            "breakdown"
        ][1]["losses"][0]["cause"]
        == "left_on_board"
    )


def final_result(doc: dict) -> tuple[dict, list[dict]]:
    """The final's session given a result of its own (blank breakdowns) in ``doc``."""
    final = doc["stages"][1]["sessions"][0]
    seated = [seat["player"] for seat in final["seats"]]
    final["result"] = copy.deepcopy(doc["stages"][0]["sessions"][0]["result"])
    final["result"]["versions"] = [final["result"]["versions"][0]]
    version = final["result"]["versions"][0]
    version.update(ranking=seated, survivors=seated)
    version["breakdown"] = [{"seat": player} for player in seated]
    return final, version["breakdown"]


def test_kills_beyond_a_loadout_are_refused_naming_the_session_and_player(document):
    """The per-kind caps of the judge's form apply on import too: the final's first seat
    fielded one heavy-weapon marine (its loadout), so two of them cannot be killed."""
    doc = fresh(document)
    final, breakdown = final_result(doc)
    victim = final["seats"][0]
    assert victim["loadout"]["marine_weapons"].count("assault-cannon") == 1
    breakdown[1]["kills"] = [{"victim": victim["player"], "marine_class": "heavy", "count": 1}]
    assert not messages(check_document(doc))
    breakdown[1]["kills"][0]["count"] = 2
    found = messages(check_document(doc))
    path = "$.stages[1].sessions[0].result.versions[0].breakdown[1].kills[0].count"
    assert list(found) == [path]
    name = next(p["name"] for p in doc["players"] if p["id"] == victim["player"])
    assert found[path].startswith("stage 2, session 1: ")
    assert f"{name} fielded 1 heavy-weapon marine, but 2 are recorded killed" in found[path]
    # Without the loadout only the totals are checked, as on the judge's form.
    victim["loadout"] = None
    assert not messages(check_document(doc))


def test_what_the_stipulation_does_not_score_is_refused_at_its_path(document):
    """Stall-breaker points where the stipulation has none, a Tarantula no special
    equipment hides, a negative count and a forfeited squad marked alive (decisions 63,
    64): each at its JSON path."""
    doc = fresh(document)
    final, breakdown = final_result(doc)
    final["stipulation"] = {"kind": "alien_hunt", "params": {"rounds": 8}}
    final["seats"][2]["forfeit"] = "withdrawn"
    assert messages(check_document(doc)) == {
        "$.stages[1].sessions[0].result.versions[0].survivors[2]": (
            f"stage 2, session 1: {player_name(doc, breakdown[2]['seat'])} forfeited this "
            "session, so their figures left play and none was in play at the end; untick it."
        )
    }
    final["seats"][2]["forfeit"] = ""
    breakdown[0]["stall_breaker"] = [{"round": 3, "points": 5}]
    breakdown[1]["tarantulas"] = [{"owner": breakdown[0]["seat"], "count": 1}]
    breakdown[2]["alien_tokens"] = [{"alien_type": "ork", "value": 2, "count": -1}]
    found = messages(check_document(doc))
    base = "$.stages[1].sessions[0].result.versions[0].breakdown"
    assert list(found) == [
        f"{base}[2].alien_tokens[0].count",
        f"{base}[0].stall_breaker[0].points",
        f"{base}[1].tarantulas[0].count",
    ]
    assert "has no stall breaker" in found[f"{base}[0].stall_breaker[0].points"]
    with pytest.raises(InterchangeError):
        import_document(doc)


def player_name(doc: dict, player_id: str) -> str:
    return next(player["name"] for player in doc["players"] if player["id"] == player_id)


def test_objectives_outside_catch_the_flag_import_as_saved(document):
    """A result version saved before decision 71 may hold objective points in an Alien
    Hunt (the rich tournament's preliminary scores "flag" objectives, as BoB let it then):
    the app keeps it, so the import does too and the backup restores (decision 74). The
    flags of a Catch the Flag are still checked at their path."""
    doc = fresh(document)
    preliminary = doc["stages"][0]
    assert preliminary["stipulation_kind"] == "alien_hunt"
    latest = preliminary["sessions"][0]["result"]["versions"][-1]
    assert any(
        objective["points"] for seat in latest["breakdown"] for objective in seat["objectives"]
    )
    assert check_document(doc) == []
    final, breakdown = final_result(doc)
    final["stipulation"] = {"kind": "catch_the_flag", "params": {"flag_value": 30}}
    breakdown[0]["objectives"] = [{"label": "flag", "points": 25}]
    base = "$.stages[1].sessions[0].result.versions[0].breakdown"
    found = messages(check_document(doc))
    assert list(found) == [f"{base}[0].objectives[0].points"]
    assert (
        "A flag brought home is worth 30 points in this session"
        in found[f"{base}[0].objectives[0].points"]
    )
    final["stipulation"] = {"kind": "tpk", "params": {}}
    breakdown[0]["objectives"] = [{"label": "claw", "points": 10}]
    final["result"]["versions"][0]["survivors"] = []
    assert check_document(doc) == []
    import_document(doc)
