"""The Alien player: resolves a whole Alien turn under a pluggable policy (RULES §11-12).

``turn.resolve_alien_turn`` is the entry point; ``bob_policy`` (the default),
``solitaire_policy`` and ``priority_policy`` decide; ``focus``, ``activation``,
``blips`` and ``events`` hold the shared rules they build on.
"""
