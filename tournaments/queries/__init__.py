"""Read models: what the pages, the API, the sheets and the actions read from the database.

Queries never write (the standings cache excepted, which only stores what they computed).
"""
