"""The tournament's rules as plain functions over plain data (RULES §2–9, §14).

No database here: nothing in this package imports the ORM or the models. Actions and
queries feed these functions what they read from the database and store what they decide.
"""
