"""The judge's result form and the printed score sheet offer only what the session's
stipulation can produce (decision 79): a section it cannot is left out, unless the version
being corrected already holds rows of it (saved before the checks), which are then shown
with a note saying why they must go, so the correction can remove them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.web.test_result_form import page_data, seats_of
from tournaments.actions.result_entry import record_result
from tournaments.models import Result, ResultVersion, Stipulation, StipulationKind
from tournaments.sheets.data import score_sheet

pytestmark = pytest.mark.django_db

STALL = {"from_round": 5, "points": 10, "max_extra_rounds": 3}
VEHICLES = {"1,1": "tarantula", "2,2": "abandoned_dreadnought"}
OBJECTIVES_NOTE = "Only Catch the Flag scores objectives"
STALL_NOTE = "This session&#x27;s stipulation has no stall breaker"


def stipulate(world, kind: str, params: dict) -> None:
    Stipulation.objects.create(session=world.session, kind=kind, params=params)
    world.session.refresh_from_db()


def result_url(world) -> str:
    return reverse("tournaments:judge_result", args=[world.session.pk])


def block_of(response, seat) -> dict:
    return next(block for block in response.context["blocks"] if block["seat"].pk == seat.pk)


def section_names(response, seat) -> list[str]:
    return [section["kind"].name for section in block_of(response, seat)["sections"]]


@pytest.mark.parametrize(
    ("kind", "params", "sections", "vehicles", "aliens"),
    [
        (StipulationKind.ALIEN_HUNT, {"rounds": 8}, ["token"], False, True),
        (
            StipulationKind.ALIEN_HUNT,
            {"rounds": 8, "equipment_blips": VEHICLES},
            ["token", "dread"],
            True,
            True,
        ),
        (StipulationKind.CATCH_THE_FLAG, {"flag_value": 30}, ["objective"], False, False),
        (
            StipulationKind.CATCH_THE_FLAG,
            {"flag_value": 30, "aliens": True},
            ["token", "objective"],
            False,
            True,
        ),
        (StipulationKind.TPK, {}, [], False, False),
        (StipulationKind.TPK, {"stall_breaker": STALL}, ["stall"], False, False),
        (StipulationKind.EXTENDED_TPK, {}, [], False, False),
        (
            StipulationKind.EXTENDED_TPK,
            {"aliens": True, "stall_breaker": STALL, "equipment_blips": VEHICLES},
            ["token", "dread", "stall"],
            True,
            True,
        ),
    ],
)
def test_the_form_offers_only_what_the_stipulation_can_produce(
    world, role_client, kind, params, sections, vehicles, aliens
):
    stipulate(world, kind, params)
    response = role_client("judge").get(result_url(world))
    assert response.status_code == 200
    html = response.content.decode()
    a, b, _c = seats_of(world)
    assert section_names(response, a) == sections
    assert (f'name="p{a.player_id}-tarantula-{b.player_id}"' in html) is vehicles
    assert (f'name="p{a.player_id}-kill-{b.player_id}-gunner"' in html) is vehicles
    assert (f'name="p{a.player_id}-alien-light"' in html) is aliens
    assert (f'name="p{a.player_id}-token-TOTAL"' in html) is ("token" in sections)
    assert (f'name="p{a.player_id}-objective-TOTAL"' in html) is ("objective" in sections)
    assert (f'name="p{a.player_id}-stall-TOTAL"' in html) is ("stall" in sections)
    assert (f'name="p{a.player_id}-dread-TOTAL"' in html) is ("dread" in sections)
    # Rows to add: the folded part is there only when there is something to put in it.
    assert ("<details" in html) is bool(sections)
    assert OBJECTIVES_NOTE not in html and "to be removed" not in html
    # The kills of the commander and of each marine class are always offered.
    assert f'name="p{a.player_id}-kill-{b.player_id}-commander"' in html


def test_a_tpk_result_saves_without_javascript_from_the_fields_shown(world, role_client):
    stipulate(world, StipulationKind.TPK, {"stall_breaker": STALL})
    judge = role_client("judge")
    page = judge.get(result_url(world))
    a, b, c = seats_of(world)
    data = page_data(page.context["form"])
    data[f"p{a.player_id}-kill-{b.player_id}-heavy"] = 1
    data[f"p{a.player_id}-stall-0-round"] = 5
    data[f"p{a.player_id}-stall-0-points"] = 10
    saved = judge.post(result_url(world), data)
    assert saved.status_code == 302, saved.content.decode()[:3000]
    version = Result.objects.get(session=world.session).latest_version()
    mine = next(item for item in version.breakdown if item["seat"] == str(a.player_id))
    assert mine["stall_breaker"] == [{"round": 5, "points": 10}]


def old_version(world) -> ResultVersion:
    """An Alien Hunt result whose version holds what an Alien Hunt cannot produce, as one
    saved before the checks could (decisions 63 and 71): objective points, a stall-breaker
    round, a Tarantula destroyed and its gunner killed."""
    a, b, c = seats_of(world)
    recorded = record_result(
        world.session,
        [
            {
                "seat": str(a.player_id),
                "kills": [{"victim": str(b.player_id), "marine_class": "light", "count": 1}],
            },
            {
                "seat": str(b.player_id),
                "losses": [
                    {
                        "marine_class": "light",
                        "cause": "player",
                        "killer": str(a.player_id),
                        "count": 1,
                    }
                ],
            },
            {"seat": str(c.player_id)},
        ],
        survivors=[a.player_id, b.player_id, c.player_id],
        dice=SeededDice(seed=1),
    )
    version = recorded.version
    breakdown = [dict(item) for item in version.breakdown]
    breakdown[0] = {
        **breakdown[0],
        "kills": [
            *breakdown[0]["kills"],
            {"victim": str(b.player_id), "marine_class": "gunner", "count": 1},
        ],
        "tarantulas": [{"owner": str(b.player_id), "count": 1}],
        "objectives": [{"label": "flag", "points": 30}],
    }
    breakdown[1] = {
        **breakdown[1],
        "losses": [
            *breakdown[1]["losses"],
            {"marine_class": "gunner", "cause": "player", "killer": str(a.player_id), "count": 1},
        ],
        "stall_breaker": [{"round": 5, "points": 10}],
    }
    ResultVersion.objects.filter(pk=version.pk).update(breakdown=breakdown)
    version.refresh_from_db()
    return version


def test_a_correction_shows_the_rows_an_old_version_holds_with_why_they_must_go(world, role_client):
    old_version(world)
    a, b, c = seats_of(world)
    judge = role_client("judge")
    page = judge.get(result_url(world))
    html = page.content.decode()
    assert section_names(page, a) == ["token", "objective"]
    assert section_names(page, b) == ["token", "stall"]
    assert section_names(page, c) == ["token"]
    objective = block_of(page, a)["sections"][1]
    assert objective["refused"] and objective["rows"][0]["fields"][1].value() == 30
    assert not block_of(page, a)["sections"][0]["refused"]
    assert OBJECTIVES_NOTE in html and STALL_NOTE in html
    # Nothing more of them can be added; their rows can be removed.
    assert f'name="add_objective_{a.player_id}"' not in html
    assert f'name="add_stall_{b.player_id}"' not in html
    assert f'name="remove_objective_{a.player_id}_0"' in html
    # The Tarantula and its gunner stay where they were typed, in every seat's kill group.
    assert f'name="p{a.player_id}-tarantula-{b.player_id}"' in html
    assert f'name="p{a.player_id}-kill-{b.player_id}-gunner"' in html
    assert f'name="p{c.player_id}-kill-{a.player_id}-gunner"' in html
    assert f'name="p{a.player_id}-tarantula-{c.player_id}"' not in html

    # Saved as it is, it is refused at the rows, saying why.
    refused = judge.post(result_url(world), page_data(page.context["form"]))
    assert refused.status_code == 400
    errors = refused.context["form"].errors
    assert "sets no objective" in errors[f"p{a.player_id}-objective-0-points"][0]
    assert "no stall breaker" in errors[f"p{b.player_id}-stall-0-points"][0]

    # Cleared, the correction saves, and the sections are gone from the next form.
    data = page_data(page.context["form"])
    for name in (
        f"p{a.player_id}-objective-0-label",
        f"p{a.player_id}-objective-0-points",
        f"p{b.player_id}-stall-0-round",
        f"p{b.player_id}-stall-0-points",
        f"p{a.player_id}-tarantula-{b.player_id}",
        f"p{a.player_id}-kill-{b.player_id}-gunner",
    ):
        data.pop(name)
    saved = judge.post(result_url(world), data)
    assert saved.status_code == 302, saved.content.decode()[:3000]
    latest = Result.objects.get(session=world.session).latest_version()
    assert latest.number == 2
    assert all(
        not item.get(entry)
        for item in latest.breakdown
        for entry in ("objectives", "stall_breaker", "tarantulas")
    )
    again = judge.get(result_url(world))
    assert section_names(again, a) == ["token"] and section_names(again, b) == ["token"]
    assert "-gunner" not in again.content.decode()


def test_removing_the_last_refused_row_keeps_its_section_and_the_focus_there(world, role_client):
    old_version(world)
    a = seats_of(world)[0]
    judge = role_client("judge")
    data = page_data(judge.get(result_url(world)).context["form"])
    remove = {**data, f"remove_objective_{a.player_id}_0": "1"}

    # Without JavaScript: the same page, the section without rows, the cursor on its note.
    page = judge.post(result_url(world), remove)
    assert page.status_code == 200
    objective = block_of(page, a)["sections"][1]
    assert objective["kind"].name == "objective" and objective["count"] == 0
    html = page.content.decode()
    note = f'id="rows-objective-{a.player_id}-note" tabindex="-1" autofocus'
    assert note in html and OBJECTIVES_NOTE in html

    # With htmx: the section comes back alike.
    rows_url = reverse("tournaments:judge_result_rows", args=[world.session.pk])
    part = judge.post(rows_url, remove, HTTP_HX_REQUEST="true")
    assert part.status_code == 200
    assert part.context["section"]["count"] == 0 and part.context["section"]["refused"]
    assert note in part.content.decode()


def test_the_score_sheet_has_only_the_rows_the_stipulation_can_produce(world, role_client):
    stipulate(world, StipulationKind.TPK, {"stall_breaker": STALL})
    labels = [row.label for row in score_sheet(world.session).seats[0].rows]
    assert labels == [
        "Enemy light-weapon or unarmed marines killed",
        "Enemy heavy-weapon marines or commanders killed",
        "Enemy extra-heavy-weapon marines killed",
        "Own marines lost (any cause)",
        "Stall breaker",
    ]


def test_the_score_sheet_of_an_old_version_marks_the_rows_to_remove(world, role_client):
    old_version(world)
    sheet = score_sheet(world.session)
    first = {row.label: row for row in sheet.seats[0].rows}
    objectives = first["Objectives (this session cannot score it: to be removed)"]
    assert (objectives.count, objectives.points) == (1, 30)
    assert "Tarantulas destroyed (this session cannot score it: to be removed)" in first
    assert "Tarantula gunners killed (this session cannot score it: to be removed)" in first
    assert "Stall breaker (this session cannot score it: to be removed)" in first
    assert "Piloted Dreadnoughts destroyed (class value + pilot)" not in "".join(first)
    assert sum(row.points for row in sheet.seats[0].rows) == sheet.seats[0].total
    url = reverse("tournaments:judge_print_score", args=[world.session.pk])
    html = role_client("judge").get(url).content.decode()
    assert "Objectives (this session cannot score it: to be removed)" in html
