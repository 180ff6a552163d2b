"""BoB: the StarQuest Bullet of Bullets tournament manager."""

from bob.celery import app as celery_app

__all__ = ["celery_app"]
