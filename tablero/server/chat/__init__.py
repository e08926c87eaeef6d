"""Table chat: one conversation per table, players and spectators, kept with the game.

``models.py`` and ``store.py`` keep the lines; ``lines.py`` says who may see which line and
checks what is said. The room (``tables/room.py``) sends them: each new line to every
connection that may see it, and the lines so far when a connection opens or sits down.
"""
