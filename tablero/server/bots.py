"""The seam for computer players: ``choose_move(game, seat, level) -> Move``.

For now a simple player on the reference move generator: it lists every legal placement,
scores each, and plays the best (level 3), a good one (level 2) or a middling one (level 1);
with no placement it exchanges its whole rack if it may, else passes. It is slow on a full
dictionary (about a second on a busy board), so the server calls it in a worker thread.
The real computer players (``tablero/engine/``) will replace the body of ``choose_move``.
"""

from __future__ import annotations

from ..engine.reference import generate_placements
from ..game import Game
from ..lexicon import Lexicon
from ..moves import Exchange, Move, Pass, Place
from ..rules import IllegalMove, check_placement, check_words_in_lexicon
from ..scoring import score_placement

__all__ = ["LEVELS", "choose_move"]

LEVELS = (1, 2, 3)
_RANK = {1: 0.5, 2: 0.2, 3: 0.0}
"""Which placement a level plays, as a fraction down the list from the best."""


def choose_move(game: Game, seat: int, level: int) -> Move:
    """A move for ``seat`` (the player to move) in ``game``; reads the game, changes nothing."""
    if level not in LEVELS:
        raise ValueError(f"bot level must be one of {LEVELS}, not {level}")
    v = game.variant
    rack = list(game.players[seat].rack)
    scored = _scored_placements(game, rack, game.lexicon)
    if scored:
        scored.sort(key=lambda sp: (-sp[0], _key(sp[1])))
        return scored[int(_RANK[level] * (len(scored) - 1))][1]
    exchange = Exchange(tuple(rack[: v.exchange.max_tiles]))
    if rack and v.exchange.allowed:
        try:
            game.check(exchange)
            return exchange
        except IllegalMove:
            pass
    return Pass()


def _scored_placements(game: Game, rack: list[str], lexicon: Lexicon) -> list[tuple[int, Place]]:
    if not lexicon.can_search:
        return []
    v = game.variant
    out: list[tuple[int, Place]] = []
    for place in generate_placements(v, game.board, rack, lexicon):  # type: ignore[arg-type]
        try:
            chk = check_placement(v, game.board, place, rack)
            check_words_in_lexicon(chk.words, lexicon)
        except IllegalMove:
            continue
        score = score_placement(v, list(chk.words), len(chk.new_tiles), game.first_turn)
        out.append((score.total, place))
    return out


def _key(place: Place) -> tuple[int, int, bool, str]:
    """A fixed order among equal scores, so a bot's choice does not depend on set order."""
    letters = "".join(x.tile.notation() if x.tile else "." for x in place.letters)
    return (place.start[0], place.start[1], place.across, letters)
