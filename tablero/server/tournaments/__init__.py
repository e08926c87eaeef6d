"""Tournaments: a director's Swiss or round robin over the server's tables. ``models.py`` (its
tables), ``store.py`` (one transaction each), ``results.py`` (a finished game's result, the
rows as the pairing library reads them), ``routes.py`` (``/api/tournaments…``). The pairing
itself is ``tablero.competition.pairing``; docs/competition.md has the rules, docs/web-api.md
the API."""
