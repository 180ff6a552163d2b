"""Background task: resolve a judge's Alien turn request (Celery; in-process without Redis).

Idempotent: the request id is the key. :func:`table.actions.carry_out_turn` locks the
request and works only while it is pending, so a retry, a duplicate delivery or a second
click delivering the same id never plays the turn twice.
"""

from __future__ import annotations

from celery import shared_task

from table.actions import carry_out_turn


@shared_task(autoretry_for=(ConnectionError, TimeoutError), retry_backoff=True, max_retries=5)
def run_alien_turn(request_id: str) -> str | None:
    """Carry out the request; returns its status ("done" or "failed"), None if unknown."""
    request = carry_out_turn(request_id)
    return None if request is None else request.status
