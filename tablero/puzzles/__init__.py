"""Puzzles: "find the top" in positions whose best move is clearly the best.

``selection`` picks the positions (from a CGP, a game's record or self-play), ``model`` is a
puzzle and its file format, ``judge`` says whether an answer is right, ``rating`` rates solvers
and puzzles against each other, ``history`` keeps a person's attempts at the terminal,
``shipped`` reads the sets that ship (``tablero/data/puzzles``), and ``command`` is
``tablero puzzle``. docs/competition.md ("Puzzles") says how each choice was made.
"""
