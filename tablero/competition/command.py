"""``tablero duplicate``: practise duplicate at the terminal, or play a whole game for a script.

With a person: ``tablero duplicate --variant fise`` (``practice.Practice``). With no person:
``--play top`` submits the top every round, ``--play pass`` nothing, and ``--json`` prints the
game as ``{"rounds": [{"round", "rack", "cgp", "top": {"move", "score"}, "played": {"move",
"score"}}...], "total", "top_total", "percent"}``, where ``cgp`` is the position before the
round with its rack (``tablero moves --by score --top 1`` on it gives the same top).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..cli_options import word_change_options

if TYPE_CHECKING:  # the command's imports wait until it runs: `tablero` starts fast
    from .duplicate import DuplicateGame

__all__ = ["duplicate_command", "game_json"]


@click.command("duplicate")
@word_change_options
@click.option(
    "--variant", "variant_name", default="fise", show_default=True, help="Game (name or .toml)."
)
@click.option("--lexicon", "lexicon_name", help="Word list file, a dictionary name, or a .kwg.")
@click.option("--seed", type=int, help="Seed for the racks: the same seed, the same game.")
@click.option(
    "--play",
    "autoplay",
    type=click.Choice(["top", "pass"]),
    help="No person: submit the top, or nothing, every round.",
)
@click.option("--json", "as_json", is_flag=True, help="With --play: print the game as JSON.")
@click.option(
    "--seconds",
    type=click.FloatRange(min=0),
    help="Time per round in seconds (default: the rule file's; 0: no limit).",
)
@click.option("--rounds", type=click.IntRange(min=1), help="Stop after this many rounds.")
@click.option("--name", default="You", show_default=True, help="The player's name.")
@click.option(
    "--gcg",
    "gcg_path",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the game as GCG (with the duplicate pragmas) to this file at the end.",
)
def duplicate_command(
    variant_name: str,
    lexicon_name: str | None,
    seed: int | None,
    autoplay: str | None,
    as_json: bool,
    seconds: float | None,
    rounds: int | None,
    name: str,
    gcg_path: Path | None,
) -> None:
    """Duplicate: every round the same rack for all, the board takes the top-scoring move.

    Alone at the terminal you play each rack against the clock and see the top and what you
    missed; with --play the game plays itself (for scripts and tests)."""
    from ..cli import console, fail, get_lexicon, get_variant
    from .duplicate import DuplicateError, DuplicateGame, DuplicateOptions
    from .duplicate_gcg import write_duplicate_gcg
    from .practice import Practice

    if as_json and autoplay is None:
        fail("--json prints a game played with no person: give --play top or --play pass")
    v = get_variant(variant_name)
    lexicon = get_lexicon(lexicon_name, v, quiet=as_json)
    if lexicon is None or not lexicon.can_search:
        fail("duplicate needs a dictionary to find the top: give --lexicon (a list or a .kwg)")
    options = DuplicateOptions.of(
        v,
        round_seconds="rules" if seconds is None else (seconds or None),
        max_rounds=rounds,
    )
    try:
        game = DuplicateGame(v, lexicon, [name], seed=seed, options=options)
    except DuplicateError as e:
        fail(e.message)
    player = game.players[0]
    if autoplay is None:
        outcome = Practice(game, player, console).run()
    else:
        while not game.is_over:
            if autoplay == "top":
                game.submit(player, game.top().move, 0.0)
            game.close_round()
        outcome = "over"
    if gcg_path is not None:
        gcg_path.write_text(write_duplicate_gcg(game), "utf-8")
    if as_json:
        click.echo(json.dumps(game_json(game, player), ensure_ascii=False))
    elif autoplay is not None:
        from .practice import final_table

        console.print(final_table(game, player))
    if outcome == "abandoned":
        raise SystemExit(1)


def game_json(game: DuplicateGame, player: str) -> dict[str, Any]:
    """The game as ``--json`` prints it, for one player."""
    from .results import rack_notation

    rounds = []
    for r in game.results:
        play = r.play_of(player)
        rounds.append(
            {
                "round": r.round,
                "rack": rack_notation(r.rack),
                "cgp": r.cgp,
                "top": {"move": r.top.move, "score": r.top.score},
                "played": {"move": play.move, "score": play.points},
            }
        )
    return {
        "rounds": rounds,
        "total": game.totals[player],
        "top_total": game.top_total,
        "percent": game.percent(player),
    }
