"""Post-game analysis in the web app: asked for once per finished game, run a few moves at a
time in the workers, kept in the database with its progress (``service.py`` says how)."""
