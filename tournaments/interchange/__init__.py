"""Moving tournaments in and out of BoB: whole-tournament JSON documents and CSV rosters.

* :mod:`.document` -- the versioned document format and its JSON Schema.
* :mod:`.export` -- a tournament in the database to a document.
* :mod:`.importer` -- a document checked in full, then written in one transaction.
* :mod:`.roster` -- a CSV player roster parsed and checked row by row.
"""
