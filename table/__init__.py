"""The judge's board: a session's games played with the rules engine (``rules.engine``).

The Django app is labelled ``rules`` (its first name), which its migrations and tables keep.
"""
