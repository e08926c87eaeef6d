"""Evaluation: what the tiles a move keeps are worth (leave tables, ``leaves.py``; the KLV
format in docs/leaves.md) and how those values are learned from self-play (``learn.py``)."""
