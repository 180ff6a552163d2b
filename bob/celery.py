"""The Celery application.

With ``REDIS_URL`` set, tasks go to workers through Redis. Without it, settings turn on
``task_always_eager`` and every task runs in-process, so the embedded default needs no
broker.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bob.settings")

app = Celery("bob")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
