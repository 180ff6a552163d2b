"""What an activity-log entry is about, shown in the reader's language.

An entry (:class:`~tournaments.models.ActivityLog`) keeps its description two ways: the
English text (``object_description``: for the admin, for rows stored before the codes and
for free text such as a tournament's or a player's name), and a *code* with JSON *params*
(``description_code``, ``description_params``) that pages render in the active language.

Each code below has a template (its gettext msgid) and says what kind each param is. A
param is stored as plain data and turned into text only when shown: a session or a stage
as its tournament's name, stage kind and numbers (so "Semifinal – session 2" reads
"Semifinale – sessione 2" in Italian), a stipulation as its type. Names of people stay as
they were written. An entry whose code this BoB does not know, or whose params do not fit
the code (an edited import), is shown as its stored text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from tournaments.models.activity import ActivityLog
from tournaments.models.choices import StageKind, StipulationKind
from tournaments.models.sessions import Session
from tournaments.models.stages import Stage
from tournaments.models.tournament import Tournament
from tournaments.queries.change_words import changes_text, store_changes


@dataclass(frozen=True)
class ParamKind:
    """How one kind of param is stored (``store``: the value a caller passes -> JSON data)
    and shown (``show``: the stored data -> what the template's placeholder gets).
    ``show`` raises ``KeyError``, ``TypeError`` or ``ValueError`` for data that does not fit.
    """

    store: Callable[[Any], Any]
    show: Callable[[Any], Any]


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {value!r}")
    return value


def _whole_number(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, got {value!r}")
    return value


def _stage_data(stage: Stage) -> dict[str, Any]:
    return {"tournament": stage.tournament.name, "kind": stage.kind, "number": stage.number}


def _session_data(session: Session) -> dict[str, Any]:
    return {"stage": _stage_data(session.stage), "number": session.number}


def _stage(data: Any) -> Stage:
    """An unsaved stage holding ``data``, so that its label is the model's own."""
    return Stage(
        tournament=Tournament(name=_text(data["tournament"])),
        kind=StageKind(data["kind"]),
        number=_whole_number(data["number"]),
    )


def _stage_label(data: Any) -> str:
    return str(_stage(data))


def _session_label(data: Any) -> str:
    return str(Session(stage=_stage(data["stage"]), number=_whole_number(data["number"])))


def _stipulation_label(kind: Any) -> str:
    return str(StipulationKind(_text(kind)).label)


#: A name (player, user account) or other text shown as it was written.
TEXT = ParamKind(store=str, show=_text)
#: A whole number (points...).
NUMBER = ParamKind(store=_whole_number, show=_whole_number)
#: A session, stored as its tournament's name, its stage's kind and number and its number.
SESSION = ParamKind(store=_session_data, show=_session_label)
#: A stage, stored as its tournament's name, its kind and its number.
STAGE = ParamKind(store=_stage_data, show=_stage_label)
#: A stipulation type (``StipulationKind``), given and stored as its value.
STIPULATION = ParamKind(store=lambda kind: StipulationKind(kind).value, show=_stipulation_label)


def _names(names: Any) -> dict[str, str]:
    return {"en": str(names["en"]), "it": str(names.get("it") or "")}


def _name_label(names: Any) -> str:
    """A name given in both languages, in the reader's (English where no Italian one)."""
    english = _text(names["en"])
    language = (get_language() or "en").split("-")[0]
    return _text(names.get("it") or english) if language == "it" else english


#: A name in both languages (a card, a weapon, a squad), given and stored as
#: ``{"en": ..., "it": ...}``, shown in the reader's language.
NAMES = ParamKind(store=_names, show=_name_label)
#: A catalogue edit's changes, given as ``{field: (before, after)}``, shown field by field.
CHANGES = ParamKind(store=store_changes, show=changes_text)


@dataclass(frozen=True)
class DescriptionTemplate:
    msgid: str
    params: Mapping[str, ParamKind]


#: Description codes, their templates and their params. "session" and "stage" are not
#: marked for translation: they are only the label, which is translated on its own.
DESCRIPTIONS: dict[str, DescriptionTemplate] = {
    "session": DescriptionTemplate("%(session)s", {"session": SESSION}),
    "stage": DescriptionTemplate("%(stage)s", {"stage": STAGE}),
    "stipulation_set": DescriptionTemplate(
        gettext_noop("stipulation of %(session)s set to %(kind)s"),
        {"session": SESSION, "kind": STIPULATION},
    ),
    "stipulation_cleared": DescriptionTemplate(
        gettext_noop("stipulation of %(session)s cleared: it plays the stage's"),
        {"session": SESSION},
    ),
    "session_map_set": DescriptionTemplate(
        gettext_noop("map of %(session)s changed: %(old)s → %(new)s"),
        {"session": SESSION, "old": TEXT, "new": TEXT},
    ),
    "session_map_stage": DescriptionTemplate(
        gettext_noop("map of %(session)s changed: %(old)s → the stage's, %(new)s"),
        {"session": SESSION, "old": TEXT, "new": TEXT},
    ),
    "threshold_added": DescriptionTemplate(
        gettext_noop("score threshold %(points)d added to %(session)s"),
        {"points": NUMBER, "session": SESSION},
    ),
    "threshold_removed": DescriptionTemplate(
        gettext_noop("score threshold %(points)d removed from %(session)s"),
        {"points": NUMBER, "session": SESSION},
    ),
    "table_added": DescriptionTemplate(gettext_noop("table %(name)s added"), {"name": TEXT}),
    "table_removed": DescriptionTemplate(gettext_noop("table %(name)s removed"), {"name": TEXT}),
    "tournament_imported": DescriptionTemplate(
        gettext_noop("tournament imported from a document"), {}
    ),
    "map_added": DescriptionTemplate(gettext_noop("map %(name)s added"), {"name": TEXT}),
    "map_changed": DescriptionTemplate(gettext_noop("map %(name)s changed"), {"name": TEXT}),
    "map_renamed": DescriptionTemplate(
        gettext_noop("map %(old)s renamed %(name)s"), {"old": TEXT, "name": TEXT}
    ),
    "map_removed": DescriptionTemplate(gettext_noop("map %(name)s removed"), {"name": TEXT}),
    "player_roster": DescriptionTemplate(gettext_noop("player roster"), {}),
    "judge_added": DescriptionTemplate(gettext_noop("judge %(name)s added"), {"name": TEXT}),
    "squad_preferences": DescriptionTemplate(
        gettext_noop("squad preferences of %(name)s"), {"name": TEXT}
    ),
    "squad_preferences_cleared": DescriptionTemplate(
        gettext_noop("squad preferences of %(name)s cleared"), {"name": TEXT}
    ),
    "loadout": DescriptionTemplate(gettext_noop("loadout of %(name)s"), {"name": TEXT}),
    "account_linked": DescriptionTemplate(
        gettext_noop("account %(user)s linked to %(player)s"), {"user": TEXT, "player": TEXT}
    ),
    "player_withdrawn": DescriptionTemplate(gettext_noop("%(player)s withdrawn"), {"player": TEXT}),
    "player_edited": DescriptionTemplate(gettext_noop("details of %(player)s"), {"player": TEXT}),
    "reserve_seated": DescriptionTemplate(
        gettext_noop("%(player)s replaced by %(reserve)s in %(session)s"),
        {"reserve": TEXT, "player": TEXT, "session": SESSION},
    ),
    "player_in_session": DescriptionTemplate(
        gettext_noop("%(player)s in %(session)s"), {"player": TEXT, "session": SESSION}
    ),
    "player_in_result": DescriptionTemplate(
        gettext_noop("%(player)s in %(session)s, ranked in its result"),
        {"player": TEXT, "session": SESSION},
    ),
    "judge_removed": DescriptionTemplate(gettext_noop("judge %(name)s removed"), {"name": TEXT}),
    "organiser_added": DescriptionTemplate(
        gettext_noop("organiser %(name)s added"), {"name": TEXT}
    ),
    "organiser_removed": DescriptionTemplate(
        gettext_noop("organiser %(name)s removed"), {"name": TEXT}
    ),
    "password_link": DescriptionTemplate(
        gettext_noop("link to set a password issued for %(name)s"), {"name": TEXT}
    ),
    "round_timer": DescriptionTemplate(gettext_noop("round timer"), {}),
    "dispute": DescriptionTemplate(
        gettext_noop("result of %(session)s, disputed by %(name)s"),
        {"session": SESSION, "name": TEXT},
    ),
    "private_link_renewed": DescriptionTemplate(
        gettext_noop("new private link for %(player)s (the old one no longer works)"),
        {"player": TEXT},
    ),
    "account_unlinked": DescriptionTemplate(
        gettext_noop("account %(user)s unlinked from %(player)s"),
        {"user": TEXT, "player": TEXT},
    ),
    "card_edited": DescriptionTemplate(
        gettext_noop("chapter card %(card)s of %(squad)s edited"), {"card": TEXT, "squad": TEXT}
    ),
    "cards_added": DescriptionTemplate(
        gettext_noop("shipped chapter cards added to the catalogue: %(count)s"),
        {"count": NUMBER},
    ),
    "weapon_edited": DescriptionTemplate(
        gettext_noop("weapon %(weapon)s edited"), {"weapon": TEXT}
    ),
    "token_values": DescriptionTemplate(gettext_noop("alien token values changed"), {}),
    "rules_values_edited": DescriptionTemplate(
        gettext_noop("values of %(item)s changed"), {"item": TEXT}
    ),
    "event_card_edited": DescriptionTemplate(
        gettext_noop("alien event card %(card)s edited"), {"card": TEXT}
    ),
    # The catalogue's edits with what they changed (the five codes above are the entries
    # logged before, which did not say it).
    "card_changed": DescriptionTemplate(
        gettext_noop("chapter card %(card)s of %(squad)s changed: %(changes)s"),
        {"card": NAMES, "squad": NAMES, "changes": CHANGES},
    ),
    "weapon_changed": DescriptionTemplate(
        gettext_noop("weapon %(weapon)s changed: %(changes)s"),
        {"weapon": NAMES, "changes": CHANGES},
    ),
    "squads_changed": DescriptionTemplate(
        gettext_noop("squads changed: %(changes)s"), {"changes": CHANGES}
    ),
    "token_values_changed": DescriptionTemplate(
        gettext_noop("alien token values changed: %(changes)s"), {"changes": CHANGES}
    ),
    "rules_values_changed": DescriptionTemplate(
        gettext_noop("values of %(item)s changed: %(changes)s"),
        {"item": NAMES, "changes": CHANGES},
    ),
    "house_rules_changed": DescriptionTemplate(
        gettext_noop("house rules changed: %(changes)s"), {"changes": CHANGES}
    ),
    "event_card_changed": DescriptionTemplate(
        gettext_noop("alien event card %(card)s changed: %(changes)s"),
        {"card": NAMES, "changes": CHANGES},
    ),
}


def description_label(code: str, params: Any, text: str) -> str:
    """A stored description in the active language: its code rendered with its params,
    or ``text`` (the stored English text) when the code is unknown or the params do not
    fit it."""
    template = DESCRIPTIONS.get(code)
    if template is None:
        return text
    try:
        shown = {name: kind.show(params[name]) for name, kind in template.params.items()}
        return _(template.msgid) % shown
    except (KeyError, TypeError, ValueError):
        return text


def entry_description(entry: ActivityLog) -> str:
    """What an activity-log entry is about, in the active language."""
    return description_label(
        entry.description_code, entry.description_params, entry.object_description
    )
