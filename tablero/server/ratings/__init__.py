"""Ratings of rated games: the model (``model``) and whose ratings they are (``players``).

Pure: no database and no web code. The caller keeps one ``Rating`` per (player key, variant),
and after a rated game passes the seats' ratings and ranks to ``update``. See docs/ratings.md.
"""

from .model import (
    BETA,
    DISPLAY_SCALE,
    DISPLAY_START,
    KAPPA,
    MAX_SEATS,
    MIN_SEATS,
    MU,
    PROVISIONAL_GAMES,
    SIGMA,
    TAU,
    Rating,
    display,
    is_provisional,
    update,
    validate_ranks,
)
from .players import (
    RATED_VARIANTS,
    account_player_key,
    bot_player_key,
    is_rated_variant,
    parse_player_key,
)

__all__ = [
    "BETA",
    "DISPLAY_SCALE",
    "DISPLAY_START",
    "KAPPA",
    "MAX_SEATS",
    "MIN_SEATS",
    "MU",
    "PROVISIONAL_GAMES",
    "RATED_VARIANTS",
    "SIGMA",
    "TAU",
    "Rating",
    "account_player_key",
    "bot_player_key",
    "display",
    "is_provisional",
    "is_rated_variant",
    "parse_player_key",
    "update",
    "validate_ranks",
]
