"""Move generation: every legal placement of a rack and its exact score, and the best ones by
equity without listing the rest.

``native.py`` binds the C core (``native/``: the GADDAG walk, cross-sets, scoring, ranked
search, self-play and simulation loops; specified in docs/movegen.md); ``reference.py`` is the
readable generator in Python that the core is checked against; ``candidates.py`` turns either
into the moves of a position ranked by equity (the one seam the players, the search and the
server call); ``bench.py`` measures them.
"""
