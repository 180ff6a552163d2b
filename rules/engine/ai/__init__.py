"""The Alien player: resolves a whole Alien turn under a pluggable policy (RULES §11-12).

``turn.resolve_alien_turn`` is the entry point; ``bob_policy`` (the default),
``solitaire_policy`` and ``priority_policy`` decide; ``focus``, ``activation``, ``reach``,
``readiness``, ``plans``, ``attack_choice``, ``area``, ``strike`` and ``actions`` hold the
choices they share. The rules they act under are in :mod:`rules.engine.play`.
"""
