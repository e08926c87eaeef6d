"""Search beyond one move's equity: Monte-Carlo simulation of the best candidates over
random deals (``simulate.py``) and the exact endgame once the bag is empty (``endgame.py``)."""
