"""The engine: what a computer knows of a position, by domain.

``movegen/``     every legal placement and its score (the C core and the Python reference)
``evaluation/``  the value of the tiles a move keeps (leave tables and their learning)
``search/``      simulation of the best candidates, the exact endgame
``players.py``   the levels, beginner to expert: the one seam the terminal, the command line
                 and the server call
``selfplay.py``  games between players, for statistics, learning and the ladder
"""
