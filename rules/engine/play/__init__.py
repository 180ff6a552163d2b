"""The rules of play around the Alien turn that leave no choice to the Aliens (RULES §10-12).

``blips`` (surveys, reveals, reinforcements entering), ``events`` (the event phase),
``reinforcement_phase``, ``targets`` (which figures an alien may attack), ``switches``
(session progress kept in the stipulation), ``chance`` (uniform choices with the dice)
and ``turn_context`` (the Alien turn being resolved). The judge's board uses them outside
any Alien turn too; the Alien AI (:mod:`rules.engine.ai`) builds on them.
"""
