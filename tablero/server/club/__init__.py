"""The club: how players find each other. Seeks (an open offer of a game that anyone logged
in may accept) and, later, rematches. See docs/web-api.md, "Seeks"."""
