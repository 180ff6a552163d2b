"""Keeping cached pages and read models fresh: the tournament's cache generation, bumped
after every committed change of its rows; and the process's cool-down after Redis failed,
shared by the cache and the task queue."""
