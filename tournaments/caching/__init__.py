"""Keeping cached pages and read models fresh: the tournament's cache generation, bumped
after every committed change of its rows."""
