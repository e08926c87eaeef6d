"""Competition: ways to play beyond a table of friends.

Duplicate, where every player gets the same rack and the board takes the top: ``duplicate``
(the game), ``draw_rule`` (how its racks are drawn), ``results`` (what a game gives),
``duplicate_gcg`` (its GCG), and ``tablero duplicate`` (``command``, ``practice``).
Tournaments: ``standings`` (wins, then spread) and ``pairing`` (Swiss, round robin, who
moves first). docs/competition.md has the rules as implemented.
"""
