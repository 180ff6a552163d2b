"""The names the engine's texts give the chapter cards, the alien event cards and the
weapons: the engine's own (shipped) names, or a caller's naming table installed for a block
of rendering with :func:`named`.

A caller whose catalogue names things otherwise (a tournament's, edited by its organiser)
renders inside ``named(Naming(...))``, so the step log, the panels and the errors say what
its catalogue says; what its table leaves out keeps the engine's name. The table is plain
data: every name is given by language (``{"en": ..., "it": ...}``; a language left out or
empty reads as the English name).

Chapters name their cards apart (RULES §5: each chapter has its own deck), so a text naming
a card played or held by a player, or by one of their figures, names it as *that* player's
chapter does: ``chapters`` holds each chapter's names by effect code and ``owners`` the
chapter of each player's and figure's id. Where a text names a card with nobody's chapter
to read it in, ``chapter_cards`` names it by its effect alone.

A text naming a *player* (``player``, ``players``, ``active``, ``next``, ``winners``,
``ranking``) names them by ``players`` (the caller's names for the seats), by their id where
it has none: the engine's own texts (tests, the CLI) keep the ids. Figures keep their ids
(``p1-m4``), the names the players use for them; ``figure_labels`` gives a figure a label
drawn for it (``Or1``), which its texts show with the id (``Or1 (ork-blip-1-1)``).
``aims_in_words``: the Alien's choice of a line weapon's aim, which the engine's log shows
as the step (``-1,0``), reads as a direction (``to the left``). ``plain_squares``: a square
reads ``5,4`` (column, row, as a board's rulers number them and a judge types it) instead
of the engine's own ``(5,4)``, so that every text of a page writes squares one way.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

#: Names by key (an effect code, an event card's id, a weapon key) and language.
Names = Mapping[str, Mapping[str, str]]


@dataclass(frozen=True)
class Naming:
    """A caller's names for what the engine's texts name.

    ``chapter_cards``: the chapter cards by effect code, where no chapter is known;
    ``chapters``: each chapter's (by the caller's key for it) cards by effect code;
    ``owners``: the chapter key of each player's and figure's id; ``event_cards``: the alien
    event cards by id; ``weapons``: the weapons by the engine's key (``laser_rifle``);
    ``players``: each player's name by id (``p1`` -> ``Valchiria``); ``figure_labels``:
    the label drawn for a figure, by id (``ork-blip-1-1`` -> ``Or1``); ``aims_in_words``:
    a line weapon's aim named as a direction; ``plain_squares``: squares written ``5,4``.
    """

    chapter_cards: Names = field(default_factory=dict)
    chapters: Mapping[str, Names] = field(default_factory=dict)
    owners: Mapping[str, str] = field(default_factory=dict)
    event_cards: Names = field(default_factory=dict)
    weapons: Names = field(default_factory=dict)
    players: Mapping[str, str] = field(default_factory=dict)
    figure_labels: Mapping[str, str] = field(default_factory=dict)
    aims_in_words: bool = False
    plain_squares: bool = False

    def chapter_of(self, owner: str | None) -> Names:
        """The card names of ``owner``'s chapter (a player's or a figure's id); empty for
        nobody's or an unknown id."""
        chapter = self.owners.get(owner) if owner else None
        return self.chapters.get(chapter, {}) if chapter else {}

    def player_name(self, player: str) -> str:
        """``player``'s (an id) name; the id itself where none is given."""
        return self.players.get(player) or player

    def figure_name(self, figure: str) -> str:
        """``figure`` (an id) led by the label drawn for it, if any: ``Or1 · ork-blip-1-1``
        (no brackets: the texts put a figure's unit in brackets after it)."""
        label = self.figure_labels.get(figure)
        return f"{label} · {figure}" if label else figure

    def square_text(self, square: Sequence[int]) -> str:
        """``square`` as the texts write it: ``(5,4)``, or ``5,4`` with ``plain_squares``."""
        plain = f"{square[0]},{square[1]}"
        return plain if self.plain_squares else f"({plain})"


#: The engine's own names: nothing renamed.
SHIPPED = Naming()

_naming: ContextVar[Naming] = ContextVar("naming", default=SHIPPED)


@contextmanager
def named(naming: Naming | None) -> Iterator[None]:
    """Render the texts of this block with ``naming`` (None: the engine's own names)."""
    token = _naming.set(naming or SHIPPED)
    try:
        yield
    finally:
        _naming.reset(token)


def current_naming() -> Naming:
    """The naming in effect for the texts rendered now."""
    return _naming.get()


def in_language(entry: Mapping[str, str], lang: str) -> str:
    """A name of ``entry`` in ``lang``; English where it has none in ``lang``."""
    return entry.get(lang) or entry["en"]
