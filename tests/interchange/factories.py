"""A rich tournament for the interchange tests: every kind of row the document carries.

Nine registered players and one unregistered substitute, three squads with cards, weapons,
a closed preliminary stage with results (one corrected twice), an open final with
loadouts, thresholds, honours, ranks, bonuses, recorded dice and activity.
"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

from django.contrib.auth import get_user_model

from rules.engine.dice import seed_commitment
from tournaments.actions.venue_tables import table_named
from tournaments.models import (
    ActivityLog,
    ChapterCard,
    DiceRoll,
    Honour,
    Loadout,
    Player,
    Registration,
    Result,
    ResultVersion,
    ScoreBonus,
    ScoreThreshold,
    Seat,
    Session,
    Squad,
    SquadPreference,
    SquadRank,
    Stage,
    Stipulation,
    Tournament,
    Weapon,
)

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
SQUADS = (
    ("ultramarines", "Ultramarines", "Ultramarines", "blue"),
    ("blood-angels", "Blood Angels", "Angeli Sanguinari", "red"),
    ("imperial-fists", "Imperial Fists", "Pugni d'Acciaio", "yellow"),
)


def user(username: str):
    model = get_user_model()
    found, _created = model.objects.get_or_create(username=username)
    return found


def breakdown(seat: Player, victim: Player, killer: Player, objective: int) -> dict:
    """A seat's breakdown in the scoring service's format (seat ids are player ids as text)."""
    return {
        "seat": str(seat.pk),
        "kills": [{"victim": str(victim.pk), "marine_class": "heavy", "count": 1}],
        "losses": [
            {"marine_class": "light", "cause": "player", "killer": str(killer.pk), "count": 1},
            {"marine_class": "light", "cause": "alien", "killer": None, "count": 1},
        ],
        "tarantulas": [],
        "dreadnoughts": [],
        "alien_tokens": [{"alien_type": "ork", "value": 2, "count": 2}],
        "objectives": [{"label": "flag", "points": objective}],
        "stall_breaker": [],
    }


def stamp(model, pk: int, field: str, value: datetime) -> None:
    model.objects.filter(pk=pk).update(**{field: value})


def rich_tournament(slug: str = "bob-2025") -> Tournament:
    tournament = Tournament.objects.create(
        name="BoB Milano 2025",
        slug=slug,
        starts_on=date(2025, 3, 1),
        ends_on=date(2025, 3, 2),
        venue="Circolo Ludico",
        description="Torneo di prova: «tutti contro tutti».",
        seating_method="seeded",
        qualifier_overrides={"1": 6},
        data_overrides={"units": {"ork": {"movement": 7}}},
    )
    stamp(Tournament, tournament.pk, "created_at", T0 - timedelta(days=30))
    tournament.organisers.set([user("organiser")])
    tournament.judges.set([user("judge-anna"), user("judge.bruno")])

    squads = {}
    for order, (slug_, name_en, name_it, colour) in enumerate(SQUADS):
        squad = Squad.objects.create(
            tournament=tournament,
            slug=slug_,
            name_en=name_en,
            name_it=name_it,
            colour=colour,
            order=order,
        )
        for kind, count in (("order", 2), ("equipment", 3)):
            for number in range(count):
                ChapterCard.objects.create(
                    squad=squad,
                    slug=f"{slug_}-{kind}-{number}",
                    name_en=f"{name_en} {kind} {number}",
                    name_it=f"{name_it} {kind} {number}",
                    kind=kind,
                    source=f"Source of {kind} card {number}.",
                    order=number,
                )
        squads[slug_] = squad
    for slug_, weapon_class in (
        ("laser-rifle", "light"),
        ("bolter", "light"),
        ("assault-cannon", "heavy"),
        ("missile-launcher", "heavy"),
        ("lascannon", "extra_heavy"),
        ("power-glove", "close"),
    ):
        Weapon.objects.create(
            tournament=tournament,
            slug=slug_,
            name_en=slug_.replace("-", " ").title(),
            name_it=slug_,
            weapon_class=weapon_class,
            colour_restricted=weapon_class != "light",
        )

    players = []
    slugs = [squad[0] for squad in SQUADS]
    for number in range(1, 10):
        player = Player.objects.create(
            name=f"Player {number}",
            nickname=f"P{number}" if number % 2 else "",
            email=f"player{number}@example.com" if number != 5 else "",
            user=user("mario") if number == 1 else None,
        )
        registration = Registration.objects.create(
            tournament=tournament, player=player, number=number
        )
        stamp(Registration, registration.pk, "registered_at", T0 - timedelta(days=10 - number))
        SquadPreference.objects.create(
            player=player,
            tournament=tournament,
            choices=slugs[number % 3 :] + slugs[: number % 3],
        )
        players.append(player)
    substitute = Player.objects.create(name="Substitute", email="sub@example.com")

    preliminary = Stage.objects.create(
        tournament=tournament,
        number=1,
        kind="preliminary",
        status="closed",
        stipulation_kind="alien_hunt",
        stipulation_params={"end_condition": "fixed_rounds", "rounds": 8},
        map_name="hunt-derelict",
        closed_at=T0 + timedelta(hours=6),
    )
    final = Stage.objects.create(
        tournament=tournament,
        number=2,
        kind="final",
        seating_method="random",
        stipulation_kind="tpk",
        map_name="reference",
    )
    SquadPreference.objects.create(
        player=players[0], tournament=tournament, stage=final, choices=["imperial-fists"]
    )
    for points in (40, 20):
        ScoreThreshold.objects.create(stage=preliminary, points=points)

    qualifiers = []
    prelim_sessions = []
    for number in range(1, 4):
        session = Session.objects.create(
            stage=preliminary,
            number=number,
            scheduled_at=T0 + timedelta(hours=number),
            table=table_named(tournament, f"Table {number}"),
            judge=user("judge-anna") if number != 2 else None,
            status="completed",
            map_name="hunt-derelict",
            notes="Dreadnought class value 30." if number == 1 else "",
            schedule_sequence=number,
        )
        prelim_sessions.append(session)
        Stipulation.objects.create(
            session=session,
            kind="alien_hunt",
            params={"end_condition": "fixed_rounds", "rounds": 8, "event_deck": True},
        )
        if number == 1:
            ScoreThreshold.objects.create(session=session, points=30)
        seated = players[(number - 1) * 3 : number * 3]
        for order, player in enumerate(seated):
            Seat.objects.create(
                session=session,
                player=player,
                squad=squads[slugs[order]],
                seat_order=order + 1,
                initiative_position=3 - order,
                notified_sequence=number,
            )
        a, b, c = seated
        result = Result.objects.create(session=session)
        stamp(Result, result.pk, "created_at", T0 + timedelta(hours=number + 2))
        versions = [(False, "first entry"), (True, "")]
        if number == 1:
            versions.append((True, "Kill of marine 3 was by Blood Angels"))
        for version_number, (confirmed, reason) in enumerate(versions, start=1):
            version = ResultVersion.objects.create(
                result=result,
                number=version_number,
                breakdown=[
                    breakdown(a, b, c, 10 * version_number),
                    breakdown(b, c, a, 5),
                    breakdown(c, a, b, 0),
                ],
                survivors=sorted([a.pk, b.pk]),
                ranking=[a.pk, b.pk, c.pk] if version_number < 3 else [b.pk, a.pk, c.pk],
                confirmed=confirmed,
                reason=reason,
                created_by=user("judge-anna") if version_number != 2 else user("organiser"),
            )
            when = T0 + timedelta(hours=number + 2, minutes=version_number)
            stamp(ResultVersion, version.pk, "created_at", when)
        winner = b if number == 1 else a
        qualifiers.extend([winner.pk, (a if winner is b else b).pk])
        honour = Honour.objects.create(
            tournament=tournament,
            player=winner,
            squad=Seat.objects.get(session=session, player=winner).squad,
            session=session,
        )
        stamp(Honour, honour.pk, "created_at", T0 + timedelta(hours=6, minutes=number))
    Stage.objects.filter(pk=preliminary.pk).update(qualifiers=qualifiers)

    final_session = Session.objects.create(
        stage=final,
        number=1,
        scheduled_at=T0 + timedelta(days=1),
        duration_minutes=240,
        table=table_named(tournament, "Main table"),
        judge=user("judge.bruno"),
        status="scheduled",
        schedule_sequence=2,
    )
    Stipulation.objects.create(
        session=final_session,
        kind="tpk",
        params={
            "aliens": True,  # the board game below plays Alien turns
            "stall_breaker": {"from_round": 6, "points": 5, "growth": 1, "max_extra_rounds": 4},
        },
    )
    for order, (pk, squad_slug) in enumerate(
        zip(qualifiers[:3], ("imperial-fists", "blood-angels", "ultramarines"), strict=True)
    ):
        seat = Seat.objects.create(
            session=final_session,
            player_id=pk,
            squad=squads[squad_slug],
            seat_order=order + 1,
        )
        if order < 2:
            Loadout.objects.create(
                seat=seat,
                commander_combo="bolter" if order else "sword_glove",
                marine_weapons=["laser-rifle", "assault-cannon", "laser-rifle", "bolter"],
                extra_marine_weapons=["lascannon"] if order else [],
                order_cards=[f"{squad_slug}-order-0", f"{squad_slug}-order-1"][: order + 1],
                equipment_cards=[f"{squad_slug}-equipment-{n}" for n in range(3)],
            )
    empty_session = Session.objects.create(stage=final, number=2, status="planned")
    ScoreThreshold.objects.create(session=empty_session, points=15)

    for position, player in enumerate(players):
        SquadRank.objects.create(
            tournament=tournament,
            player=player,
            squad=squads[slugs[position % 3]] if position != 8 else None,
            rank=1 if player.pk in qualifiers[::2] else 0,
        )
    SquadRank.objects.create(tournament=tournament, player=substitute, rank=2)
    ScoreBonus.objects.create(
        tournament=tournament,
        player=players[0],
        earned_in=prelim_sessions[0],
        thresholds_reached=[20, 30],
        extra_equipment_cards=2,
        used_in=final_session,
    )
    ScoreBonus.objects.create(
        tournament=tournament,
        player=players[3],
        earned_in=prelim_sessions[1],
        thresholds_reached=[20],
        extra_equipment_cards=1,
    )

    draw_batch = uuid.UUID("11111111-2222-3333-4444-555555555555")
    seed = 123456789
    for sequence, (player, value) in enumerate(zip(players[:3], (3, 6, 5), strict=True)):
        roll = DiceRoll.objects.create(
            tournament=tournament,
            stage=preliminary,
            session=prelim_sessions[0],
            batch=draw_batch,
            sequence=sequence,
            purpose="squad draw, choice 1: blood-angels",
            purpose_code="squad_choice",
            purpose_params={"choice": 1, "squad": "blood-angels"},
            kind="d6",
            values=[value],
            subject=str(player.pk),
            source="seeded",
            seed=str(seed),
            seed_commitment=seed_commitment(seed),
        )
        stamp(DiceRoll, roll.pk, "created_at", T0 + timedelta(minutes=30))
    shot = {"attacker": "figure-7", "weapon": "lascannon", "target": "a1"}
    for sequence, kind, values, subject, code, params in (
        (0, "red", [0, 3, 2], "figure-7", "shot", shot),
        (1, "white", [1, 0], "", "", {}),
    ):
        roll = DiceRoll.objects.create(
            tournament=tournament,
            session=final_session,
            batch=uuid.UUID("99999999-8888-7777-6666-555555555555"),
            sequence=sequence,
            purpose="shooting",
            purpose_code=code,
            purpose_params=params,
            kind=kind,
            values=values,
            subject=subject,
            source="scripted",
        )
        stamp(DiceRoll, roll.pk, "created_at", T0 + timedelta(days=1, minutes=5))
    roll = DiceRoll.objects.create(
        tournament=tournament,
        stage=final,
        batch=uuid.UUID("00000000-0000-0000-0000-000000000001"),
        sequence=0,
        purpose="best runner-up roll-off",
        kind="d6",
        values=[4],
        subject="",
        source="seeded",
        seed="42",
        seed_commitment=seed_commitment(42),
    )
    stamp(DiceRoll, roll.pk, "created_at", T0 + timedelta(hours=7))

    for minutes, verb, actor, details in (
        (0, "created", "organiser", {}),
        (5, "recorded_result", "judge-anna", {"session": "1.1", "version": 1}),
        (5, "corrected_result", None, {"session": "1.1", "version": 3}),
        (9, "closed_stage", "organiser", {"stage": 1}),
    ):
        entry = ActivityLog.objects.create(
            tournament=tournament,
            actor=user(actor) if actor else None,
            verb=verb,
            object_description=f"{verb} entry",
            details=details,
        )
        stamp(ActivityLog, entry.pk, "created_at", T0 + timedelta(hours=8, minutes=minutes))
    board_game(final_session)
    return Tournament.objects.get(pk=tournament.pk)


def board_game(session) -> None:
    """A game on the judge's board: its setup, two Alien turns played with app dice
    (recorded as dice rolls), a turn that failed and one still waiting for a worker."""
    from django.utils import timezone

    from rules.engine.dice import SeededDice
    from table.actions import carry_out_turn, create_game, request_alien_turn
    from table.models import AlienTurnRequest

    judge = user("judge-anna")
    game = create_game(session, "hunt-derelict", "bob", label="Table 1", actor=judge)
    for number, seed in ((1, 7), (2, 8)):  # played at once when tasks run in-process
        played = request_alien_turn(
            game, "bob", SeededDice(seed=seed), expected_number=number, actor=judge
        )
        carry_out_turn(played.pk)
    stale = AlienTurnRequest.objects.create(game=game, base_number=1, policy="bob", seed="3")
    carry_out_turn(stale.pk)  # fails: the game moved on
    AlienTurnRequest.objects.create(
        game=game, base_number=3, policy="bob", seed="9", queued_at=timezone.now()
    )


def without_unique_ids(document: dict) -> dict:
    """``document`` without the ids a database holds once (dice batches, Alien-turn request
    ids): a copy imported next to its original gets fresh ones, everything else is equal."""
    for roll in document["dice_rolls"]:
        roll.pop("batch")
    for game in document["games"]:
        for snapshot in game["snapshots"]:
            snapshot.pop("dice_batch")
        for request in game["turn_requests"]:
            request.pop("id")
    return document
