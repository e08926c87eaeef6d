"""Setting up exact game states for rule tests without breaking tile conservation.

Tiles are only ever moved between the bag, the racks and the board, so a rigged game still
holds exactly its variant's tile set.
"""

from __future__ import annotations

from tablero.alphabet import SPANISH
from tablero.game import Game
from tablero.lexicon import WordListLexicon
from tablero.moves import parse_rack
from tablero.rules import resolve_place


def words(*items: str, alphabet=SPANISH) -> WordListLexicon:  # type: ignore[no-untyped-def]
    return WordListLexicon.from_words(items, alphabet, name="test")


def rig(game: Game, seat: int, rack: str) -> None:
    """Give a player exactly these tiles (rack notation: ``AB?[CH]``), from the bag."""
    player = game.players[seat]
    game.bag.extend(player.rack)
    player.rack = []
    for tile in parse_rack(rack, game.variant.alphabet):
        _take(game, tile, seat)
        player.rack.append(tile)


def _take(game: Game, tile: str, seat: int) -> None:
    """Remove a tile from the bag, or from another rack (which gets a bag tile instead)."""
    if tile in game.bag:
        game.bag.remove(tile)
        return
    for other, p in enumerate(game.players):
        if other != seat and tile in p.rack:
            p.rack.remove(tile)
            p.rack.append(game.bag.pop())
            return
    raise ValueError(f"no {tile} tile left to take")


def lay(game: Game, notation: str) -> None:
    """Put a word on the board from the bag, as if played earlier (no score, no turn)."""
    place = game.parse(notation)
    new, _ = resolve_place(place, game.board)
    for coord, tile in new:
        _take(game, tile.rack_form, -1)
        game.board[coord] = tile


def empty_bag(game: Game, leave: int = 0) -> list[str]:
    """Take tiles out of the bag (they leave the game: only for rule tests that need it)."""
    taken = game.bag[leave:]
    del game.bag[leave:]
    return taken


def new_game(variant: str, lexicon: WordListLexicon, players: int = 2, seed: int = 1) -> Game:
    game = Game(variant, [f"P{i}" for i in range(players)], lexicon, seed=seed)
    return game
