"""Pages of BoB, split by audience: public, player, judge, organiser, plus log-in."""

from tournaments.views.public import home

__all__ = ["home"]
