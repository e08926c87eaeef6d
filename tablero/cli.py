"""The ``tablero`` command: for people at a terminal and for scripts.

Exit codes: 0 success; 2 an illegal move or bad input (the message says why).
"""

from __future__ import annotations

import json
import sys
from typing import NoReturn

import click
from rich.console import Console

from . import render
from .formats.cgp import CgpError, read_cgp
from .lexicon import Lexicon, LexiconError, load_lexicon, shipped_list_path
from .moves import NotationError, parse_move
from .rules import IllegalMove, check_move
from .variant import Variant, VariantError, builtin_variant_names, load_variant

console = Console()
err_console = Console(stderr=True)


def fail(message: str) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    sys.exit(2)


def get_variant(name: str) -> Variant:
    try:
        return load_variant(name)
    except VariantError as e:
        fail(str(e))


def get_lexicon(name: str | None, variant: Variant, quiet: bool = False) -> Lexicon | None:
    """The lexicon named (or the variant's own); None when the default is not installed."""
    chosen = name or variant.lexicon
    if name is None and shipped_list_path(chosen) is None:
        if not quiet:
            err_console.print(
                f"[yellow]note:[/] no {chosen!r} dictionary is installed; words are not checked "
                "(give --lexicon FILE)"
            )
        return None
    try:
        return load_lexicon(chosen, variant.alphabet)
    except LexiconError as e:
        fail(str(e))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tablero")
def main() -> None:
    """tablero: crossword tile games in Spanish and Romanian."""


@main.command("variants")
def variants_command() -> None:
    """List the built-in games."""
    from rich.table import Table

    table = Table(title="Games")
    for col in ("name", "game", "language", "board", "tiles", "players"):
        table.add_column(col)
    for name in builtin_variant_names():
        v = load_variant(name)
        blanks = v.tiles.get("?", (0, 0))[0]
        table.add_row(
            name,
            v.title,
            v.language,
            f"{v.columns}×{v.rows}",
            f"{v.tile_count} ({blanks} blanks)",
            f"{v.min_players}–{v.max_players}",
        )
    console.print(table)


@main.group("variant")
def variant_group() -> None:
    """Look at one game's rules."""


@variant_group.command("show")
@click.argument("name")
def variant_show(name: str) -> None:
    """Draw NAME's board and list its tiles and every rule value (NAME or a .toml path)."""
    v = get_variant(name)
    console.print(f"[bold]{v.title}[/] ({v.name})")
    console.print(render.board_table(v))
    legend = "  ".join(
        f"[{render.square_style(v, c)[1]}]{code}[/] {kind.describe()}"
        for code, kind in v.squares.items()
        for c in [
            next((r, k) for r in range(v.rows) for k in range(v.columns) if v.layout[r][k] == code)
        ]
    )
    console.print(legend + "  [bold yellow]★[/] start")
    console.print(render.tiles_table(v))
    console.print(render.rules_table(v))
    if v.assumed:
        console.print(render.assumptions_group(v))


@main.command("score")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {score, words, ...}.")
@click.option("--variant", "variant_name", help="Rule set (name or .toml); default: the CGP's var.")
@click.option("--lexicon", "lexicon_name", help="Word list file, a dictionary name, or 'none'.")
@click.argument("cgp")
@click.argument("move")
def score_command(
    as_json: bool, variant_name: str | None, lexicon_name: str | None, cgp: str, move: str
) -> None:
    """Score MOVE in the position CGP: the words formed and the breakdown, or why it is illegal."""
    variant = get_variant(variant_name) if variant_name else None
    try:
        position = read_cgp(cgp, variant)
    except CgpError as e:
        fail(f"CGP: {e}")
    v = position.variant
    lexicon = get_lexicon(lexicon_name or position.lexicon, v, quiet=as_json)
    try:
        parsed = parse_move(move, v.alphabet, v.rows, v.columns)
        result = check_move(position, parsed, lexicon)
    except NotationError as e:
        fail(f"move {move!r}: {e}")
    except IllegalMove as e:
        if as_json:
            click.echo(json.dumps({"legal": False, "rule": e.rule, "reason": e.message}))
            sys.exit(2)
        fail(f"illegal move ({e.rule}): {e.message}")
    if as_json:
        click.echo(
            json.dumps(
                {
                    "legal": True,
                    "move": move,
                    **(result.to_dict() if result else {"score": 0, "words": []}),
                },
                ensure_ascii=False,
            )
        )
        return
    if result is None:
        console.print(f"{move}: legal, scores 0")
        return
    for line in result.explain():
        console.print(line, highlight=False)


@main.command("play")
@click.option(
    "--variant", "variant_name", default="fise", show_default=True, help="Game (name or .toml)."
)
@click.option("--players", default="2", show_default=True, help="A number, or names: 'Ana,Luis'.")
@click.option("--lexicon", "lexicon_name", help="Word list file, a dictionary name, or 'none'.")
@click.option("--seed", type=int, help="Seed for the bag, to replay the same game.")
def play_command(
    variant_name: str, players: str, lexicon_name: str | None, seed: int | None
) -> None:
    """Play a game at this terminal, 2–4 people taking turns."""
    from .lexicon import AnyWordLexicon
    from .terminal import play_game

    v = get_variant(variant_name)
    if players.isdigit():
        names = [f"Player {i + 1}" for i in range(int(players))]
    else:
        names = [n.strip() for n in players.split(",") if n.strip()]
    if not v.min_players <= len(names) <= v.max_players:
        fail(f"{v.title} is for {v.min_players}–{v.max_players} players, not {len(names)}")
    lexicon = get_lexicon(lexicon_name, v) or AnyWordLexicon(v.alphabet)
    play_game(v, names, lexicon, seed=seed, console=console)


if __name__ == "__main__":  # pragma: no cover
    main()
