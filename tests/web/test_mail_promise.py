"""The organiser's schedule page promises mails to the players only when the site really
sends them (EMAIL_HOST or another real mail backend); otherwise it says they are not sent."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

EMAILED = "Players are emailed when a session is scheduled or moved."
NOT_EMAILED = "Players are not emailed: this site has no mail server set up"


@pytest.mark.parametrize(
    ("backend", "promised"),
    [
        ("django.core.mail.backends.smtp.EmailBackend", True),
        ("tests.reliability.mailbox.FileMailbox", True),  # any real backend of one's own
        ("django.core.mail.backends.console.EmailBackend", False),  # the default
        ("django.core.mail.backends.locmem.EmailBackend", False),
    ],
)
def test_the_schedule_page_promises_mails_only_when_they_are_sent(
    world, role_client, settings, backend, promised
):
    settings.EMAIL_BACKEND = backend
    page = role_client("organiser").get(
        reverse("tournaments:organiser_schedule", args=[world.tournament.slug])
    )
    text = page.content.decode()
    assert (EMAILED in text) is promised
    assert (NOT_EMAILED in text) is not promised
