"""The judge's session sheets (score sheet, loadout sheet): their data and their PDF.

:mod:`.seats` reads a session's seats and loadout checks, :mod:`.data` turns them into
plain sheet objects that both the HTML print pages and :mod:`.pdf` render.
"""
