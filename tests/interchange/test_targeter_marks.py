"""A loadout's Targeter marks travel with it; a document without them (every one written
before them) still imports, with none marked."""

import pytest

from tests.interchange.test_roundtrip import empty_database
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.models import Loadout

pytestmark = pytest.mark.django_db


def test_targeter_marks_round_trip(tournament):
    loadout = Loadout.objects.filter(seat__session__stage__tournament=tournament).first()
    loadout.targeter_marks = ["plasma-gun"]
    loadout.save()
    seat = loadout.seat
    where = {
        "seat__session__number": seat.session.number,
        "seat__session__stage__number": seat.session.stage.number,
        "seat__seat_order": seat.seat_order,
    }
    document = export_tournament(tournament)
    loadouts = [
        s["loadout"]
        for stage in document["stages"]
        for session in stage["sessions"]
        for s in session["seats"]
        if s["loadout"] is not None
    ]
    assert [d["targeter_marks"] for d in loadouts if "targeter_marks" in d] == [["plasma-gun"]]
    empty_database()
    assert check_document(document) == []
    import_document(document)
    again = Loadout.objects.get(**where)
    assert again.targeter_marks == ["plasma-gun"]
    assert Loadout.objects.exclude(pk=again.pk).filter(targeter_marks=[]).exists()
