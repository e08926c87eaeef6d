"""``tablero analyze GAME.gcg``: the analysis at the terminal, as JSON, or as a web page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:  # the command's imports wait until it runs: `tablero` starts fast
    from rich.console import Console

    from .report import GameAnalysis

from ..cli_options import word_change_options

__all__ = ["analyze_command"]

DEFAULT_ITERATIONS = 300


@click.command("analyze")
@word_change_options
@click.argument("gcg_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--variant", "variant_name", help="Rule set (name or .toml); default: the file's.")
@click.option(
    "--lexicon",
    "lexicon_name",
    help="A dictionary name, word list or .kwg; default: the file's #lexicon if installed, "
    "else the game's own.",
)
@click.option("--sim", is_flag=True, help="Judge the best moves by simulation, not static equity.")
@click.option(
    "--iterations",
    type=click.IntRange(10, 100_000),
    default=DEFAULT_ITERATIONS,
    show_default=True,
    help="Deals per position with --sim.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the analysis as a web page (boards drawn) to this file.",
)
def analyze_command(
    gcg_file: Path,
    variant_name: str | None,
    lexicon_name: str | None,
    sim: bool,
    iterations: int,
    as_json: bool,
    html_path: Path | None,
) -> None:
    """What the engine would have played at every move of a game: the best moves, the rank
    and equity loss of the move played, and each player's mean loss, bingos missed and
    mistakes."""
    from ..cli import console, err_console, fail, get_lexicon, get_variant, progress_bar
    from ..engine.players import shipped_leaves
    from ..formats.gcg import GcgError, decode_gcg, gcg_variant, read_gcg
    from ..lexicon import dictionary_language
    from .html import analysis_html
    from .report import analyse_gcg, positions_to_analyse

    if as_json and html_path is not None:
        fail("give --json or --html, not both")
    try:
        data = gcg_file.read_bytes()
    except OSError as e:
        fail(f"cannot read {gcg_file}: {e.strerror}")
    try:
        gcg = read_gcg(decode_gcg(data))
        variant = gcg_variant(gcg, get_variant(variant_name) if variant_name else None)
    except GcgError as e:
        fail(f"{gcg_file}: {e}")
    chosen = lexicon_name
    named = (gcg.lexicon or "").partition("+")[0]  # es+1a2b3c4d: es with a club's changes
    if chosen is None and named and dictionary_language(named) is not None:
        chosen = named
    elif chosen is None and named and named != variant.lexicon and not as_json:
        err_console.print(
            f"[yellow]note:[/] the file's dictionary {named!r} is not installed; judging "
            f"with {variant.lexicon!r} (give --lexicon to choose)"
        )
    lexicon = get_lexicon(chosen, variant, quiet=as_json)
    if lexicon is None or not lexicon.can_search:
        fail("analysis needs a dictionary: give --lexicon (a word list or a .kwg)")
    total = positions_to_analyse(gcg)
    if total == 0:
        fail(f"{gcg_file}: no move with its rack: there is nothing to judge")
    with progress_bar("analysing", total, transient=True) as show:
        try:
            analysis = analyse_gcg(
                gcg,
                variant,
                lexicon,
                shipped_leaves(variant.name),
                sim_iterations=iterations if sim else None,
                on_position=show,
            )
        except GcgError as e:
            fail(f"{gcg_file}: {e}")
    if as_json:
        click.echo(json.dumps(analysis.to_dict(), ensure_ascii=False))
        return
    if html_path is not None:
        title = f"{gcg.title or gcg_file.stem}: analysis"
        try:
            html_path.write_text(analysis_html(analysis, variant, title), encoding="utf-8")
        except OSError as e:
            fail(f"cannot write {html_path}: {e.strerror}")
        err_console.print(f"wrote {html_path}")
        return
    _print_tables(console, analysis)


def _print_tables(console: Console, analysis: GameAnalysis) -> None:
    from rich.table import Table

    from .report import MISTAKE_SIZES

    moves = Table(title=f"{len(analysis.moves)} moves judged by {analysis.method} equity")
    numbers = ("#", "score", "best score", "loss", "rank")
    for col in ("#", "player", "played", "score", "best", "best score", "loss", "rank"):
        moves.add_column(col, justify="right" if col in numbers else "left")
    for m in analysis.moves:
        loss = "—" if m.equity_loss is None else f"{m.equity_loss:.1f}"
        moves.add_row(
            str(m.ply),
            m.player,
            m.played + ("" if m.note is None else f" ({m.note})"),
            str(m.score),
            m.best,
            str(m.best_score),
            loss,
            "—" if m.rank is None else str(m.rank),
        )
    console.print(moves)
    sizes = [name for name, _ in reversed(MISTAKE_SIZES)]
    players = Table(title="players")
    for col in ("player", "moves", "mean loss", "bingos missed", *sizes):
        players.add_column(col, justify="left" if col == "player" else "right")
    for p in analysis.players:
        players.add_row(
            p.name,
            str(p.moves),
            f"{p.mean_equity_loss:.2f}",
            str(p.missed_bingos),
            *(str(p.mistakes[s]) for s in sizes),
        )
    console.print(players)
