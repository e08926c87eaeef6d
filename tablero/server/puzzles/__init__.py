"""Puzzles at the server: the shipped sets and the puzzles found in finished games, served to
accounts and guests, each attempt rated (``tablero.puzzles`` is the library underneath).
``models`` the tables, ``store`` the database, ``service`` the background scans, ``routes``
the API (docs/web-api.md, "Puzzles")."""
