"""A game step's summary in the reader's language.

A :class:`~table.models.Snapshot` stores its summary as text, written in the language of
whoever made the step. The steps whose summary follows from what the snapshot keeps (the
setup's map, the Alien turn's policy, an undo's step, an upload) are written again here in
the active language, so the Italian history does not keep an English line; other steps show
their stored text.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules.engine.maps import bundled_maps, load_map
from table.game_setup import POLICY_NAMES
from table.models import Snapshot, SnapshotKind
from table.step_log import narration_language


def map_title(map_name: str) -> str:
    """A bundled map's title in the active language (a map BoB does not bundle: its name)."""
    if map_name not in bundled_maps():
        return map_name
    return load_map(map_name).title_in(narration_language())


def policy_name(policy: str) -> str:
    return str(POLICY_NAMES.get(policy, policy))


def setup_summary(map_name: str) -> str:
    """The setup step's summary: the map by its title in the active language."""
    return _("Squads placed at their docking claws on the map %(map)s.") % {
        "map": map_title(map_name)
    }


def alien_turn_summary(policy: str) -> str:
    return _("Alien turn (%(policy)s policy).") % {"policy": policy_name(policy)}


def undo_summary(number: int) -> str:
    return _("Back to step %(number)d.") % {"number": number}


def upload_summary() -> str:
    return _("State replaced by an uploaded file.")


def snapshot_summary(snapshot: Snapshot) -> str:
    """``snapshot``'s summary in the active language when it can be written again, else as
    stored."""
    if snapshot.kind == SnapshotKind.SETUP:
        return setup_summary(snapshot.game.map_name)
    if snapshot.kind == SnapshotKind.ALIEN_TURN and snapshot.policy:
        return alien_turn_summary(snapshot.policy)
    if snapshot.kind == SnapshotKind.UNDO and snapshot.restored_from is not None:
        return undo_summary(snapshot.restored_from)
    if snapshot.kind == SnapshotKind.UPLOAD:
        return upload_summary()
    return snapshot.summary
