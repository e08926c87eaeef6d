"""Duplicate rooms: 1 to 100 players (accounts or guests) play the same racks against the clock.
``models.py`` (its tables), ``store.py`` (one transaction each, under the room's row lock),
``views.py`` (what each viewer may see: the hidden submissions are decided there),
``service.py`` (the games of this process, the round timer, live updates), ``routes.py``
(``/api/duplicate…`` and the WebSocket). The game itself is ``tablero.competition.duplicate``;
docs/competition.md has the rules, docs/web-api.md the API."""
