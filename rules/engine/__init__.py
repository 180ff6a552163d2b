"""The StarQuest rules engine: pure Python, no Django.

Everything here is a function of its inputs (a game state, data tables and a dice
source), so the tournament app, the judge's pages and the command line all share it.
"""
