"""Loadout validation (RULES §5): weapons and chapter cards a player takes into a session.

:func:`validate_loadout` returns every problem at once (an empty tuple means the loadout
is valid), each with a machine ``code``, the ``field`` it concerns (``marine_weapons[2]``
for the third marine) and a translated message saying what is wrong and how to fix it.

The rules checked:

* the commander takes one combo: power axe + laser pistol, bolter, or power sword + power
  glove (commanders never carry extra-heavy weapons);
* four marines, each with a heavy weapon or a laser rifle, at least one of each; each
  heavy weapon type at most once;
* only weapons made in the squad's colour;
* Extended TPK: exactly two extra marines, each with an extra-heavy weapon; otherwise none;
* cards: exactly 1 order + 1 per rank above Marine Squad, and 4 equipment + 1 per score
  threshold reached in the previous session, all from the squad's own chapter set, each
  card once;
* each Targeter chosen marks one weapon type, its own (never the other copy's), a weapon
  that shoots: never an extra-heavy weapon, nor a hand-to-hand one (power axe, sword,
  glove), whose mark no shot would ever use.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.card_names import chapter_card_name
from tournaments.domain.catalogue import CardKind, Catalogue, SquadSpec, WeaponClass
from tournaments.domain.engine_language import narration_language
from tournaments.domain.honours import card_allowance

MARINES = 4
EXTRA_MARINES = 2


@dataclass(frozen=True)
class Loadout:
    """A player's choices for one session (field names match the loadout model)."""

    squad: str
    commander_combo: str
    marine_weapons: tuple[str, ...]
    extra_marine_weapons: tuple[str, ...] = ()
    order_cards: tuple[str, ...] = ()
    equipment_cards: tuple[str, ...] = ()
    targeter_marks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in (
            "marine_weapons",
            "extra_marine_weapons",
            "order_cards",
            "equipment_cards",
            "targeter_marks",
        ):
            object.__setattr__(self, name, tuple(getattr(self, name)))


@dataclass(frozen=True)
class LoadoutProblem:
    code: str
    field: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "field": self.field, "message": self.message}


def validate_loadout(
    loadout: Loadout,
    catalogue: Catalogue,
    *,
    extended_tpk: bool = False,
    rank: int = 0,
    thresholds_reached: int = 0,
) -> tuple[LoadoutProblem, ...]:
    """Every problem of ``loadout`` under RULES §5 (empty when it is valid).

    ``rank`` is the squad's rank (0-2) and ``thresholds_reached`` the score thresholds
    the player reached in their previous session.
    """
    problems: list[LoadoutProblem] = []
    squad = catalogue.squad(loadout.squad)
    if squad is None:
        known = ", ".join(s.display_name() for s in catalogue.squads)
        problems.append(
            LoadoutProblem(
                "unknown_squad",
                "squad",
                _("Squad '%(squad)s' does not exist in this tournament; choose one of: %(known)s.")
                % {"squad": loadout.squad, "known": known},
            )
        )
        return tuple(problems)
    _check_commander(loadout, catalogue, squad, problems)
    _check_marines(loadout, catalogue, squad, problems)
    _check_extra_marines(loadout, catalogue, squad, extended_tpk, problems)
    allowance = card_allowance(rank, thresholds_reached)
    _check_cards(loadout, catalogue, squad, CardKind.ORDER, allowance.orders, problems)
    _check_cards(loadout, catalogue, squad, CardKind.EQUIPMENT, allowance.equipment, problems)
    _check_targeter_marks(loadout, catalogue, problems)
    return tuple(problems)


def is_targeter(slug: str) -> bool:
    """Whether a chapter card slug is a copy of Targeter (``targeter``, ``targeter-2``)."""
    return slug == "targeter" or slug.startswith("targeter-")


def _targeter_names(loadout: Loadout, catalogue: Catalogue) -> tuple[str, list[str]]:
    """The squad's Targeter as its catalogue names it, and the names of the copies taken, in
    the deck's order (the order of the marks)."""
    cards = [card for card in catalogue.chapter_cards(loadout.squad) if is_targeter(card.slug)]
    names = catalogue.card_names(loadout.squad)
    card = cards[0].display_name() if cards else chapter_card_name("targeter", narration_language())
    return card, [names[c.slug] for c in cards if c.slug in loadout.equipment_cards]


def _check_targeter_marks(loadout: Loadout, catalogue: Catalogue, problems: list) -> None:
    chosen = sum(1 for slug in loadout.equipment_cards if is_targeter(slug))
    marks = loadout.targeter_marks
    card, taken = _targeter_names(loadout, catalogue)

    def name(index: int) -> str:
        """The name of the copy whose mark is ``marks[index]``."""
        return taken[index] if index < len(taken) else card

    for index in range(chosen):
        if index < len(marks) and marks[index]:
            continue
        problems.append(
            LoadoutProblem(
                "targeter_mark_missing",
                f"targeter_marks[{index}]",
                _("Choose the weapon type %(card)s marks: each copy taken marks one.")
                % {"card": name(index)},
            )
        )
    if len(marks) > chosen:
        problems.append(
            LoadoutProblem(
                "targeter_mark_extra",
                f"targeter_marks[{chosen}]",
                ngettext(
                    "More weapon types are marked than the %(chosen)d copy of %(card)s "
                    "chosen; clear the marks of the copies you do not take.",
                    "More weapon types are marked than the %(chosen)d copies of %(card)s "
                    "chosen; clear the marks of the copies you do not take.",
                    chosen,
                )
                % {"chosen": chosen, "card": card},
            )
        )
    for index, slug in enumerate(marks):
        field = f"targeter_marks[{index}]"
        weapon = catalogue.weapon(slug)
        if not slug:
            continue
        if weapon is None:
            problems.append(
                LoadoutProblem(
                    "targeter_mark_unknown",
                    field,
                    _("Weapon '%(weapon)s' does not exist; choose a weapon type to mark.")
                    % {"weapon": slug},
                )
            )
        elif weapon.weapon_class is WeaponClass.EXTRA_HEAVY:
            problems.append(
                LoadoutProblem(
                    "targeter_mark_extra_heavy",
                    field,
                    _(
                        "%(card)s never marks an extra-heavy weapon (%(weapon)s); choose "
                        "another weapon type."
                    )
                    % {"card": name(index), "weapon": weapon.display_name()},
                )
            )
        elif weapon.weapon_class is WeaponClass.CLOSE:
            problems.append(
                LoadoutProblem(
                    "targeter_mark_close",
                    field,
                    _(
                        "%(card)s marks a weapon a figure shoots with; %(weapon)s is a "
                        "hand-to-hand weapon: choose another weapon type."
                    )
                    % {"card": name(index), "weapon": weapon.display_name()},
                )
            )
        elif slug in marks[:index]:
            problems.append(
                LoadoutProblem(
                    "targeter_mark_twice",
                    field,
                    _(
                        "Each copy of %(card)s marks its own weapon type: %(weapon)s is marked "
                        "twice; choose another one."
                    )
                    % {"card": card, "weapon": weapon.display_name()},
                )
            )


def _weapon_name(catalogue: Catalogue, slug: str) -> str:
    weapon = catalogue.weapon(slug)
    return weapon.display_name() if weapon else slug


def _squad_name(catalogue: Catalogue, slug: str) -> str:
    squad = catalogue.squad(slug)
    return squad.display_name() if squad else slug


def _check_colour(
    catalogue: Catalogue, squad: SquadSpec, slug: str, field: str, problems: list
) -> None:
    weapon = catalogue.weapon(slug)
    if weapon is not None and not weapon.available_in(squad.colour):
        problems.append(
            LoadoutProblem(
                "wrong_colour",
                field,
                _(
                    "%(weapon)s is not made in %(colour)s, the colour of %(squad)s; choose a "
                    "weapon of your squad's colour."
                )
                % {
                    "weapon": weapon.display_name(),
                    "colour": squad.colour,
                    "squad": squad.display_name(),
                },
            )
        )


def _combo_names(catalogue: Catalogue) -> str:
    return "; ".join(
        " + ".join(_weapon_name(catalogue, slug) for slug in weapons)
        for weapons in catalogue.commander_combos.values()
    )


def _check_commander(
    loadout: Loadout, catalogue: Catalogue, squad: SquadSpec, problems: list
) -> None:
    weapons = catalogue.commander_combos.get(loadout.commander_combo)
    if weapons is None:
        problems.append(
            LoadoutProblem(
                "commander_combo_unknown",
                "commander_combo",
                _("'%(combo)s' is not a commander combo; choose one of: %(combos)s.")
                % {"combo": loadout.commander_combo, "combos": _combo_names(catalogue)},
            )
        )
        return
    for slug in weapons:
        weapon = catalogue.weapon(slug)
        if weapon is not None and weapon.weapon_class is WeaponClass.EXTRA_HEAVY:
            problems.append(
                LoadoutProblem(
                    "commander_extra_heavy",
                    "commander_combo",
                    _(
                        "A commander never carries an extra-heavy weapon (%(weapon)s); choose "
                        "another combo."
                    )
                    % {"weapon": weapon.display_name()},
                )
            )
        _check_colour(catalogue, squad, slug, "commander_combo", problems)


def _check_marines(
    loadout: Loadout, catalogue: Catalogue, squad: SquadSpec, problems: list
) -> None:
    weapons = loadout.marine_weapons
    if len(weapons) != MARINES:
        problems.append(
            LoadoutProblem(
                "marine_count",
                "marine_weapons",
                _("Give exactly %(expected)s marine weapons, one per marine; %(given)s given.")
                % {"expected": MARINES, "given": len(weapons)},
            )
        )
    heavy: list[str] = []
    rifles = 0
    for index, slug in enumerate(weapons):
        field = f"marine_weapons[{index}]"
        weapon = catalogue.weapon(slug)
        if weapon is None:
            problems.append(
                LoadoutProblem(
                    "unknown_weapon",
                    field,
                    _(
                        "Weapon '%(weapon)s' (marine %(number)s) does not exist; choose a heavy "
                        "weapon or a laser rifle."
                    )
                    % {"weapon": slug, "number": index + 1},
                )
            )
            continue
        if weapon.weapon_class is WeaponClass.HEAVY:
            heavy.append(slug)
        elif slug == catalogue.laser_rifle:
            rifles += 1
        else:
            problems.append(
                LoadoutProblem(
                    "marine_weapon_not_allowed",
                    field,
                    _(
                        "Marine %(number)s cannot carry %(weapon)s; a marine carries a heavy "
                        "weapon or a laser rifle."
                    )
                    % {"number": index + 1, "weapon": weapon.display_name()},
                )
            )
        _check_colour(catalogue, squad, slug, field, problems)
    if not heavy:
        problems.append(
            LoadoutProblem("no_heavy_weapon", "marine_weapons", _no_heavy(catalogue, squad))
        )
    if not rifles:
        problems.append(
            LoadoutProblem(
                "no_laser_rifle",
                "marine_weapons",
                _("At least one marine must carry a %(rifle)s.")
                % {"rifle": _weapon_name(catalogue, catalogue.laser_rifle)},
            )
        )
    for slug, count in Counter(heavy).items():
        if count > 1:
            problems.append(
                LoadoutProblem(
                    "heavy_weapon_repeated",
                    "marine_weapons",
                    _(
                        "%(weapon)s is taken %(count)s times; a squad has one of each heavy "
                        "weapon, so choose a different heavy weapon or a laser rifle."
                    )
                    % {"weapon": _weapon_name(catalogue, slug), "count": count},
                )
            )


def _weapons_of(catalogue: Catalogue, squad: SquadSpec, weapon_class: WeaponClass) -> list[str]:
    """The names of the catalogue's weapons of ``weapon_class`` that ``squad`` may take."""
    return [
        weapon.display_name()
        for weapon in catalogue.weapons
        if weapon.weapon_class is weapon_class
        and weapon.available_in(squad.colour)
        and weapon.slug != catalogue.laser_rifle
    ]


def _no_heavy(catalogue: Catalogue, squad: SquadSpec) -> str:
    names = _weapons_of(catalogue, squad, WeaponClass.HEAVY)
    if not names:
        return _(
            "At least one marine must carry a heavy weapon, and this tournament's catalogue "
            "has none %(squad)s may take: ask the organiser to correct the weapons."
        ) % {"squad": squad.display_name()}
    return _("At least one marine must carry a heavy weapon: %(weapons)s.") % {
        "weapons": ", ".join(names)
    }


def _check_extra_marines(
    loadout: Loadout, catalogue: Catalogue, squad: SquadSpec, extended_tpk: bool, problems: list
) -> None:
    weapons = loadout.extra_marine_weapons
    if not extended_tpk:
        if weapons:
            problems.append(
                LoadoutProblem(
                    "extra_marines_not_allowed",
                    "extra_marine_weapons",
                    _("Extra marines are only for Extended TPK sessions; remove them."),
                )
            )
        return
    if len(weapons) != EXTRA_MARINES:
        problems.append(
            LoadoutProblem(
                "extra_marine_count",
                "extra_marine_weapons",
                _(
                    "Extended TPK adds exactly %(expected)s marines with extra-heavy weapons; "
                    "%(given)s given."
                )
                % {"expected": EXTRA_MARINES, "given": len(weapons)},
            )
        )
    for index, slug in enumerate(weapons):
        field = f"extra_marine_weapons[{index}]"
        weapon = catalogue.weapon(slug)
        if weapon is None or weapon.weapon_class is not WeaponClass.EXTRA_HEAVY:
            problems.append(
                LoadoutProblem(
                    "extra_marine_weapon_not_extra_heavy",
                    field,
                    _(
                        "Extra marine %(number)s must carry an extra-heavy weapon (%(weapons)s), "
                        "not '%(weapon)s'."
                    )
                    % {
                        "number": index + 1,
                        "weapons": ", ".join(_weapons_of(catalogue, squad, WeaponClass.EXTRA_HEAVY))
                        or "–",
                        "weapon": _weapon_name(catalogue, slug),
                    },
                )
            )
            continue
        _check_colour(catalogue, squad, slug, field, problems)


def _card_count(kind: CardKind, count: int) -> str:
    """``count`` cards of ``kind`` as words: "1 order card", "2 equipment cards"."""
    if kind is CardKind.ORDER:
        text = ngettext("%(count)d order card", "%(count)d order cards", count)
    else:
        text = ngettext("%(count)d equipment card", "%(count)d equipment cards", count)
    return text % {"count": count}


def _check_cards(
    loadout: Loadout,
    catalogue: Catalogue,
    squad: SquadSpec,
    kind: CardKind,
    allowed: int,
    problems: list,
) -> None:
    name = "order_cards" if kind is CardKind.ORDER else "equipment_cards"
    chosen = getattr(loadout, name)
    chapter = {card.slug: card for card in catalogue.chapter_cards(squad.slug)}
    of_kind = [card for card in chapter.values() if card.kind is kind]
    kind_label = _("order cards") if kind is CardKind.ORDER else _("equipment cards")
    if len(of_kind) < allowed:
        problems.append(
            LoadoutProblem(
                "chapter_set_too_small",
                name,
                _(
                    "%(squad)s may take %(allowed)s but its chapter set has only "
                    "%(available)s; ask the organiser to complete the chapter cards."
                )
                % {
                    "squad": squad.display_name(),
                    "allowed": _card_count(kind, allowed),
                    "available": len(of_kind),
                },
            )
        )
    elif len(chosen) != allowed:
        problems.append(
            LoadoutProblem(
                f"{kind.value}_card_count",
                name,
                _("Choose exactly %(allowed)s for this session; %(given)s chosen.")
                % {"allowed": _card_count(kind, allowed), "given": len(chosen)},
            )
        )
    for slug, count in Counter(chosen).items():
        if count > 1:
            problems.append(
                LoadoutProblem(
                    "card_repeated",
                    name,
                    ngettext(
                        "Card '%(card)s' is chosen %(count)s time; each card can be taken once.",
                        "Card '%(card)s' is chosen %(count)s times; each card can be taken once.",
                        count,
                    )
                    % {
                        "card": chapter[slug].display_name() if slug in chapter else slug,
                        "count": count,
                    },
                )
            )
    for index, slug in enumerate(chosen):
        field = f"{name}[{index}]"
        card = chapter.get(slug)
        if card is None:
            owners = sorted(
                {c.squad for c in catalogue.cards if c.slug == slug and c.squad != squad.slug}
            )
            if owners:
                message = _(
                    "Card '%(card)s' belongs to another chapter (%(owners)s); choose from the "
                    "%(squad)s chapter cards."
                ) % {
                    "card": next(c.display_name() for c in catalogue.cards if c.slug == slug),
                    "owners": ", ".join(_squad_name(catalogue, owner) for owner in owners),
                    "squad": squad.display_name(),
                }
                code = "card_not_in_chapter"
            else:
                message = _(
                    "Card '%(card)s' does not exist; choose from the %(squad)s chapter cards."
                ) % {"card": slug, "squad": squad.display_name()}
                code = "unknown_card"
            problems.append(LoadoutProblem(code, field, message))
        elif card.kind is not kind:
            problems.append(
                LoadoutProblem(
                    "card_wrong_kind",
                    field,
                    _("'%(card)s' is not one of the %(kind)s; move it to the other list.")
                    % {"card": card.display_name(), "kind": kind_label},
                )
            )


def loadout_blockers(catalogue: Catalogue) -> tuple[str, ...]:
    """What keeps a squad of ``catalogue`` from every legal loadout of RULES §5 (a commander
    combo, a heavy weapon and a laser rifle among the marines, the extra-heavy weapons of
    Extended TPK, each of the squad's colour), one message per problem naming the squads it
    blocks, in the organiser's words; empty when every squad can build one. Cards are left
    out: a weapon's class or colour never changes what a deck holds."""
    squads: dict[str, list[str]] = {}
    for squad in catalogue.squads:
        for problem in _material_blockers(catalogue, squad):
            squads.setdefault(problem, []).append(squad.display_name())
    return tuple(
        _("%(squads)s: %(problem)s") % {"squads": ", ".join(names), "problem": problem}
        for problem, names in squads.items()
    )


def _material_blockers(catalogue: Catalogue, squad: SquadSpec) -> list[str]:
    """The weapons' problems of the best loadout ``squad`` could build (the first combo the
    commander may take, the first heavy weapon and laser rifles for the marines)."""
    found: list[str] = []
    combos = [
        combo
        for combo in catalogue.commander_combos
        if not _problems_of(_check_commander, Loadout(squad.slug, combo, ()), catalogue, squad)
    ]
    if not combos:
        found.append(
            _(
                "the commander could take none of his combos (%(combos)s): a commander carries "
                "no extra-heavy weapon and only weapons of his squad's colour."
            )
            % {"combos": _combo_names(catalogue)}
        )
    heavy = [
        weapon.slug
        for weapon in catalogue.weapons
        if weapon.weapon_class is WeaponClass.HEAVY
        and weapon.available_in(squad.colour)
        and weapon.slug != catalogue.laser_rifle
    ]
    rifle = catalogue.laser_rifle
    marines = Loadout(squad.slug, "", (heavy[0] if heavy else rifle, rifle, rifle, rifle))
    for problem in _problems_of(_check_marines, marines, catalogue, squad):
        if problem.code == "no_heavy_weapon":
            found.append(
                _(
                    "no weapon the marines may take is a heavy weapon any more, and at least "
                    "one marine must carry one."
                )
            )
        else:
            found.append(
                _(
                    "the marines could no longer carry the %(rifle)s (a light weapon of their "
                    "colour), and at least one must."
                )
                % {"rifle": _weapon_name(catalogue, rifle)}
            )
            break
    if not _weapons_of(catalogue, squad, WeaponClass.EXTRA_HEAVY):
        found.append(
            _(
                "no weapon the squad may take is extra-heavy any more, and Extended TPK gives "
                "each squad two marines with extra-heavy weapons."
            )
        )
    return found


def _problems_of(check, loadout: Loadout, catalogue: Catalogue, squad: SquadSpec) -> list:
    problems: list[LoadoutProblem] = []
    check(loadout, catalogue, squad, problems)
    return problems


def suggested_cards(
    catalogue: Catalogue, squad: str, rank: int = 0, thresholds_reached: int = 0
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A legal card pick for ``squad``: the first order and equipment cards of its chapter
    deck, as many as the allowance gives (fewer when the deck is too small). Used where a
    player has made no choice yet (the demo's players, the default loadout's test)."""
    allowance = card_allowance(rank, thresholds_reached)
    cards = catalogue.chapter_cards(squad)

    def first(kind: CardKind, count: int) -> tuple[str, ...]:
        return tuple(card.slug for card in cards if card.kind is kind)[:count]

    return first(CardKind.ORDER, allowance.orders), first(CardKind.EQUIPMENT, allowance.equipment)


def suggested_targeter_marks(equipment: Sequence[str], weapons: Sequence[str]) -> tuple[str, ...]:
    """One weapon type per Targeter in ``equipment``, each its own: the first of the
    squad's ``weapons`` (marines' weapon slugs, never extra-heavy ones) in order."""
    taken = sum(1 for slug in equipment if is_targeter(slug))
    return tuple(dict.fromkeys(weapons))[:taken]
