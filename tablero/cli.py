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
from .lexicon.letters import LetterTable
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


def _lexicon_for_lookup(name: str) -> Lexicon:
    """``es``/``ro`` (shipped), a ``.kwg`` graph or a word list; the alphabet follows the name."""
    from .alphabet import alphabet_by_name

    try:
        return load_lexicon(name, alphabet_by_name("ro" if name == "ro" else "es"))
    except LexiconError as e:
        fail(str(e))


@main.command("word")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of results.")
@click.option(
    "--lexicon",
    "lexicon_name",
    default="es",
    show_default=True,
    help="Dictionary: es, ro, a .kwg graph or a word-list file.",
)
@click.argument("words", nargs=-1)
def word_command(as_json: bool, lexicon_name: str, words: tuple[str, ...]) -> None:
    """Say whether each WORD is valid (or one word per line on standard input).

    Exits 0 when every word is valid, 1 when some is not.
    """
    lexicon = _lexicon_for_lookup(lexicon_name)
    items = list(words) or [line.strip() for line in sys.stdin if line.strip()]
    info = lexicon.info()
    source = f"{info.name} {info.version}".strip() + f", {info.word_count:,} words"
    results = [
        {
            "word": w,
            "normalized": lexicon.alphabet.normalize(w),
            "valid": lexicon.contains(w),
            "lexicon": info.name,
            "version": info.version,
        }
        for w in items
    ]
    if as_json:
        click.echo(json.dumps(results, ensure_ascii=False))
    else:
        for r in results:
            mark = "[green]valid[/]" if r["valid"] else "[red]not valid[/]"
            console.print(f"{r['normalized']}: {mark} ({source})", highlight=False)
    sys.exit(0 if all(r["valid"] for r in results) else 1)


@main.command("anagram")
@click.option(
    "--lexicon",
    "lexicon_name",
    default="es",
    show_default=True,
    help="Dictionary: es, ro, a .kwg graph (a plain list is built into a graph).",
)
@click.option(
    "--pattern",
    "as_pattern",
    is_flag=True,
    help="Treat LETTERS as a pattern: ? one letter, * any run (implied by a *).",
)
@click.option("--partial", is_flag=True, help="Also words using only some of the letters.")
@click.option("--json", "as_json", is_flag=True)
@click.argument("letters")
def anagram_command(
    lexicon_name: str, as_pattern: bool, partial: bool, as_json: bool, letters: str
) -> None:
    """Words made of LETTERS (? is a blank), or matching a pattern (CA??, *CION)."""
    from pathlib import Path

    from .lexicon.graph import GraphLexicon, graph_for_word_list

    lexicon = _lexicon_for_lookup(lexicon_name)
    if not isinstance(lexicon, GraphLexicon):  # a plain word list: use its cached graph
        info = lexicon.info()
        lexicon = graph_for_word_list(Path(lexicon_name), lexicon.alphabet, info.name)
    tokens = _query_tokens(letters, lexicon.alphabet)
    if as_pattern or "*" in tokens:
        found = lexicon.pattern(tokens)
    else:
        found = lexicon.anagrams(tokens, partial=partial)
    if as_json:
        click.echo(json.dumps(found, ensure_ascii=False))
        return
    for w in found:
        console.print(w, highlight=False)
    err_console.print(f"{len(found)} words")


def _query_tokens(text: str, alphabet: object) -> list[str]:
    """``CA?[CH]*`` → [C, A, ?, CH, *]; plain letters are single tiles, as on a rack."""
    from .alphabet import Alphabet

    assert isinstance(alphabet, Alphabet)
    out: list[str] = []
    i = 0
    t = text.strip()
    while i < len(t):
        ch = t[i]
        if ch == "[":
            j = t.find("]", i)
            if j < 0:
                fail(f"{text!r}: '[' without ']'")
            inner = alphabet.normalize(t[i + 1 : j])
            if not alphabet.is_letter(inner):
                fail(f"{text!r}: [{inner}] is not a tile")
            out.append(inner)
            i = j + 1
            continue
        if ch in "?*":
            out.append(ch)
        else:
            letter = alphabet.normalize(ch)
            if not alphabet.is_letter(letter):
                fail(f"{text!r}: {ch!r} is not a letter, '?' or '*'")
            out.append(letter)
        i += 1
    if not out:
        fail("give some letters, e.g. CASA?? or *CION")
    return out


@main.group("lexicon")
def lexicon_group() -> None:
    """Build and inspect word graphs."""


_LETTERS_HELP = (
    "Which tile code is which letter in the file: fise (the 28 FISE tiles, as wolges numbers "
    "them), tablero-es, tablero-ro, english, or a file with one letter per line."
)


@lexicon_group.command("build")
@click.argument("source", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="The .kwg file.")
@click.option(
    "--alphabet", "alphabet_name", default="es", show_default=True, type=click.Choice(["es", "ro"])
)
@click.option("--name", help="The lexicon's name (default: the file's name).")
@click.option("--version", "version_text", default="", help="The lexicon's version.")
@click.option("--letters", "letters_spec", help=_LETTERS_HELP + " Default: the alphabet's own.")
def lexicon_build(
    source: str,
    out: str,
    alphabet_name: str,
    name: str | None,
    version_text: str,
    letters_spec: str | None,
) -> None:
    """Build a word graph (KWG, DAWG + GADDAG) from a plain word list, one word per line."""
    from pathlib import Path

    from .alphabet import alphabet_by_name
    from .lexicon import WordListLexicon
    from .lexicon.graph import build_graph_file

    alphabet = alphabet_by_name(alphabet_name)
    label = name or Path(source).name.removesuffix(".xz").removesuffix(".txt")
    table = _letter_table_option(letters_spec)
    try:
        words = sorted(WordListLexicon.from_file(source, alphabet, name=label))
    except LexiconError as e:
        fail(str(e))
    lexicon = build_graph_file(words, alphabet, Path(out), label, version_text, letters=table)
    info = lexicon.info()
    left_out = len(words) - info.word_count
    console.print(
        f"{out}: {info.word_count:,} words, {len(lexicon.kwg):,} nodes, "
        f"{Path(out).stat().st_size:,} bytes; checksum {info.checksum[:16]}…",
        highlight=False,
    )
    if left_out:
        console.print(
            f"{left_out:,} words left out: they use letters the "
            f"{table.name if table else ''} letter table does not have",
            highlight=False,
        )


@lexicon_group.command("import")
@click.argument("graph", type=click.Path(exists=True, dir_okay=False))
@click.option("--letters", "letters_spec", required=True, help=_LETTERS_HELP)
@click.option(
    "--alphabet", "alphabet_name", default="es", show_default=True, type=click.Choice(["es", "ro"])
)
@click.option("--name", help="The lexicon's name (default: the file's name).")
@click.option("--version", "version_text", default="", help="The lexicon's version.")
def lexicon_import(
    graph: str, letters_spec: str, alphabet_name: str, name: str | None, version_text: str
) -> None:
    """Describe a KWG built by another engine, so --lexicon FILE.kwg works everywhere.

    Writes FILE.kwg.json beside it with the name, word count, checksum and letter table.
    """
    from pathlib import Path

    from .alphabet import alphabet_by_name
    from .lexicon.graph import import_graph_file

    table = _letter_table_option(letters_spec)
    assert table is not None
    label = name or Path(graph).name.removesuffix(".kwg")
    try:
        lexicon = import_graph_file(
            Path(graph), alphabet_by_name(alphabet_name), table, label, version_text
        )
    except LexiconError as e:
        fail(str(e))
    info = lexicon.info()
    console.print(
        f"{graph}: {info.word_count:,} words read with the {table.name} letter table; "
        f"checksum {info.checksum[:16]}…",
        highlight=False,
        soft_wrap=True,
    )


@lexicon_group.command("info")
@click.argument("graph", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def lexicon_info(graph: str, as_json: bool) -> None:
    """Name, version, word count, checksum and letter table of a .kwg file."""
    from pathlib import Path

    from .lexicon.graph import GraphLexicon

    try:
        lexicon = GraphLexicon.load(Path(graph))
    except LexiconError as e:
        fail(str(e))
    meta = json.loads(Path(graph + ".json").read_text("utf-8"))
    info = lexicon.info()
    out = {
        "name": info.name,
        "version": info.version,
        "word_count": info.word_count,
        "checksum": info.checksum,
        "alphabet": lexicon.alphabet.name,
        "letter_table": meta.get("letter_table", f"tablero-{lexicon.alphabet.name}"),
        "nodes": len(lexicon.kwg),
    }
    if as_json:
        click.echo(json.dumps(out, ensure_ascii=False))
    else:
        for key, value in out.items():
            console.print(f"{key}: {value}", highlight=False)


def _letter_table_option(spec: str | None) -> LetterTable | None:
    from .lexicon.letters import LetterTableError, letter_table

    if spec is None:
        return None
    try:
        return letter_table(spec)
    except LetterTableError as e:
        fail(str(e))


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


from .server.cli import serve  # noqa: E402  (the web app's command: tablero/server/cli.py)

main.add_command(serve)

if __name__ == "__main__":  # pragma: no cover
    main()
