"""tablero: crossword tile games in Spanish and Romanian."""
