"""The ``tablero`` command: for people at a terminal and for scripts.

Exit codes: 0 success; 2 an illegal move or bad input (the message says why).
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import click
from rich.console import Console

from . import render
from .alphabet import SHIPPED_ALPHABETS, Alphabet
from .cli_options import word_change_options, word_file_given
from .formats.cgp import CgpError, read_cgp
from .lexicon import Lexicon, LexiconError, dictionary_language, load_lexicon
from .lexicon.amend import WordChanges, amended_lexicon
from .lexicon.letters import LetterTable
from .moves import NotationError, parse_move
from .position import Position
from .rules import IllegalMove, check_move
from .variant import Variant, VariantError, builtin_variant_names, load_variant

# Into a pipe or a file a message is one line however long (a script reads it whole); on a
# terminal rich fits it to the window.
console = Console(soft_wrap=not sys.stdout.isatty())
err_console = Console(stderr=True, soft_wrap=not sys.stderr.isatty())


def fail(message: str) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    sys.exit(2)


@contextmanager
def progress_bar(description: str, total: int, transient: bool) -> Iterator[Callable[[int], None]]:
    """A bar on stderr for a long command (``selfplay``, ``analyze``); yields the function
    that says how many of ``total`` are done. ``transient``: gone when it ends."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=transient,
    ) as progress:
        task = progress.add_task(description, total=total)
        yield lambda done: progress.update(task, completed=done)


def get_variant(name: str) -> Variant:
    try:
        return load_variant(name)
    except VariantError as e:
        fail(str(e))


def position_and_lexicon(
    cgp: str, variant_name: str | None, lexicon_name: str | None, quiet: bool
) -> tuple[Position, Lexicon | None]:
    """A CGP read under --variant (else its own ``var``) and the lexicon to judge it with."""
    variant = get_variant(variant_name) if variant_name else None
    try:
        position = read_cgp(cgp, variant)
    except CgpError as e:
        fail(f"CGP: {e}")
    return position, get_lexicon(lexicon_name or position.lexicon, position.variant, quiet=quiet)


def command_line_word_changes(alphabet: Alphabet) -> WordChanges:
    """The changes ``--add-words`` and ``--remove-words`` name (none outside a command)."""
    from .lexicon import WordListLexicon

    lists: dict[str, frozenset[str]] = {}
    for key in ("add_words", "remove_words"):
        path = word_file_given(key)
        try:
            words = WordListLexicon.from_file(path, alphabet) if path else ()
        except LexiconError as e:
            fail(str(e))
        lists[key] = frozenset(words)
    try:
        return WordChanges.of(lists["add_words"], lists["remove_words"], alphabet)
    except LexiconError as e:
        fail(str(e))


def _amended(base: Lexicon, variant_changes: WordChanges) -> Lexicon:
    """``base`` with the rule file's and the command line's word changes applied."""
    try:
        changes = variant_changes.merged(command_line_word_changes(base.alphabet))
        return amended_lexicon(base, changes)
    except LexiconError as e:
        fail(str(e))


def get_lexicon(name: str | None, variant: Variant, quiet: bool = False) -> Lexicon | None:
    """The lexicon named (or the variant's own) with the club's word changes (the rule file's
    and ``--add-words``/``--remove-words``); None when the default is not installed."""
    chosen = name or variant.lexicon
    if name is None and dictionary_language(chosen) is None:
        if command_line_word_changes(variant.alphabet):
            fail("--add-words and --remove-words change a dictionary: give --lexicon")
        if not quiet:
            why = (
                f"the {variant.name} rules name no dictionary"
                if chosen == "none"
                else f"no {chosen!r} dictionary is installed"
            )
            err_console.print(
                f"[yellow]note:[/] {why}; words are not checked (give --lexicon FILE)"
            )
        return None
    try:
        base = load_lexicon(chosen, variant.alphabet)
    except LexiconError as e:
        fail(str(e))
    return _amended(base, variant.word_changes)


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
@word_change_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {score, words, ...}.")
@click.option("--variant", "variant_name", help="Rule set (name or .toml); default: the CGP's var.")
@click.option("--lexicon", "lexicon_name", help="Word list file, a dictionary name, or 'none'.")
@click.argument("cgp")
@click.argument("move")
def score_command(
    as_json: bool, variant_name: str | None, lexicon_name: str | None, cgp: str, move: str
) -> None:
    """Score MOVE in the position CGP: the words formed and the breakdown, or why it is illegal."""
    position, lexicon = position_and_lexicon(cgp, variant_name, lexicon_name, quiet=as_json)
    v = position.variant
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
    for line in result.explain_lines():
        console.print(line, highlight=False)


def _lexicon_for_lookup(name: str, alphabet_name: str | None) -> Lexicon:
    """``es``/``ro`` (shipped), an installed name, a ``.kwg`` graph or a word list, spelled
    with ``--alphabet`` (by default the dictionary's own language, else ``es``)."""
    from .alphabet import alphabet_by_name

    try:
        alphabet = alphabet_by_name(alphabet_name or dictionary_language(name) or "es")
        base = load_lexicon(name, alphabet)
    except LexiconError as e:
        fail(str(e))
    return _amended(base, WordChanges())


_ALPHABET_OPTION = click.option(
    "--alphabet",
    "alphabet_name",
    type=click.Choice(SHIPPED_ALPHABETS),
    help="The tiles a word list is spelled with (default: the dictionary's language, else es).",
)


@main.command("word")
@word_change_options
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of results.")
@click.option(
    "--lexicon",
    "lexicon_name",
    default="es",
    show_default=True,
    help="Dictionary: es, ro, a .kwg graph or a word-list file.",
)
@_ALPHABET_OPTION
@click.argument("words", nargs=-1)
def word_command(
    as_json: bool, lexicon_name: str, alphabet_name: str | None, words: tuple[str, ...]
) -> None:
    """Say whether each WORD is valid (or one word per line on standard input).

    Exits 0 when every word is valid, 1 when some is not.
    """
    lexicon = _lexicon_for_lookup(lexicon_name, alphabet_name)
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
@word_change_options
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
@_ALPHABET_OPTION
@click.argument("letters")
def anagram_command(
    lexicon_name: str,
    as_pattern: bool,
    partial: bool,
    as_json: bool,
    alphabet_name: str | None,
    letters: str,
) -> None:
    """Words made of LETTERS (? is a blank), or matching a pattern (CA??, *CION)."""
    from pathlib import Path

    from .lexicon.graph import GraphLexicon, graph_for_word_list

    lexicon = _lexicon_for_lookup(lexicon_name, alphabet_name)
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
    if not as_pattern and "*" not in tokens:
        for hint in _digraph_hints(letters, lexicon, partial):
            err_console.print(hint, highlight=False)


def _digraph_hints(text: str, lexicon: Any, partial: bool) -> list[str]:
    """Typed plainly, CH, LL and RR are two tiles each (as on a rack): say so, and name the
    spelling with the digraph tiles when it finds words (``LLAVE`` → ``[LL]AVE``)."""
    plain = text.strip().upper()
    alphabet = lexicon.alphabet
    present = [d for d in alphabet.digraphs if d in plain]
    if "[" in plain or not present:
        return []
    hints = [f"note: {d} here is {len(d)} tiles ({', '.join(d)})" for d in present]
    # Left to right, longest first, as tiles are read (``Alphabet.tokenize``).
    digraphs = "|".join(re.escape(d) for d in alphabet.digraphs)
    spelled = re.sub(digraphs, lambda m: f"[{m.group()}]", plain)
    found = lexicon.anagrams(_query_tokens(spelled, alphabet), partial=partial)
    if found:
        shown = ", ".join(found[:5]) + (", …" if len(found) > 5 else "")
        hints.append(f"with the digraph tiles: tablero anagram '{spelled}' finds {shown}")
    return hints


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
    """Install dictionaries by name; build and inspect word graphs."""


_LETTERS_HELP = (
    "Which tile code is which letter in the file: fise (the 28 FISE tiles, as wolges numbers "
    "them), tablero-es, tablero-ro, english, or a file with one letter per line."
)


@lexicon_group.command("build")
@click.argument("source", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="The .kwg file.")
@click.option(
    "--alphabet",
    "alphabet_name",
    default="es",
    show_default=True,
    type=click.Choice(SHIPPED_ALPHABETS),
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
    "--alphabet",
    "alphabet_name",
    default="es",
    show_default=True,
    type=click.Choice(SHIPPED_ALPHABETS),
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


@lexicon_group.command("add")
@click.argument("name")
@click.argument("source", type=click.Path(exists=True))
@click.option(
    "--alphabet",
    "alphabet_name",
    default="es",
    show_default=True,
    type=click.Choice(SHIPPED_ALPHABETS),
    help="The language's tiles the words are spelled with.",
)
@click.option("--replace", is_flag=True, help="Replace an installed dictionary of that name.")
@click.option(
    "--letters", "letters_spec", help="For a .kwg: " + _LETTERS_HELP + " Default: fise for es."
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def lexicon_add(
    name: str,
    source: str,
    alphabet_name: str,
    replace: bool,
    letters_spec: str | None,
    as_json: bool,
) -> None:
    """Install a dictionary by name, so --lexicon NAME works everywhere.

    SOURCE is the FISE-2 distribution (the zip "LEXICÓN FISE 2 - LISTAS" or its folder),
    inflected by the federation's rules; a full-form word list (one word a line; .xz, .gz or
    a zip of one file; UTF-8 or Latin-1; digraphs plain or in brackets); or a .kwg word graph
    from another engine. It is compiled once into $TABLERO_DATA/lexicons/NAME.
    """
    from .lexicon.installed import add_lexicon

    with _steps_shown(f"installing {name}", quiet=as_json) as say:
        try:
            record = add_lexicon(
                name,
                source,
                alphabet=alphabet_name,
                replace=replace,
                letters=letters_spec,
                progress=say,
            )
        except LexiconError as e:
            fail(str(e))
    if as_json:
        click.echo(json.dumps(_record_json(record), ensure_ascii=False))
        return
    console.print(
        f"installed {record.name}: {record.word_count:,} words ({record.kind}, "
        f"{record.alphabet}) from {record.source} in {record.build_seconds:.1f} s; "
        f"play with --lexicon {record.name}",
        highlight=False,
    )


@lexicon_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def lexicon_list(as_json: bool) -> None:
    """The installed dictionaries (tablero lexicon add), and the shipped ones."""
    from .lexicon.installed import installed_lexicons, lexicons_dir

    records = installed_lexicons()
    if as_json:
        click.echo(json.dumps([_record_json(r) for r in records], ensure_ascii=False))
        return
    from rich.table import Table

    table = Table(title=f"Installed dictionaries ({lexicons_dir()})", title_justify="left")
    for col in ("name", "language", "kind", "words", "source", "installed"):
        table.add_column(col, justify="right" if col == "words" else "left")
    for r in records:
        table.add_row(r.name, r.alphabet, r.kind, f"{r.word_count:,}", r.source, r.installed[:10])
    if records:
        console.print(table)
    else:
        console.print("no dictionary installed (tablero lexicon add NAME SOURCE)")
    console.print("shipped: es (Spanish, open sources), ro (Romanian)", highlight=False)


@lexicon_group.command("remove")
@click.argument("name")
def lexicon_remove(name: str) -> None:
    """Uninstall a dictionary installed with tablero lexicon add."""
    from .lexicon.installed import remove_lexicon

    try:
        record = remove_lexicon(name)
    except LexiconError as e:
        fail(str(e))
    console.print(f"removed {record.name} ({record.word_count:,} words)", highlight=False)


def _record_json(record: Any) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(record) | {"folder": str(record.folder)}


@contextmanager
def _steps_shown(what: str, quiet: bool) -> Iterator[Callable[[str], None]]:
    """A spinner naming the current step on a terminal; one line a step in a log."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    if quiet or not err_console.is_terminal:
        yield (
            (lambda step: None)
            if quiet
            else (lambda step: err_console.print(f"{what}: {step}", highlight=False))
        )
        return
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    ) as progress:
        task = progress.add_task(what, total=None)
        yield lambda step: progress.update(task, description=f"{what}: {step}")


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
@word_change_options
@click.option(
    "--variant", "variant_name", default="fise", show_default=True, help="Game (name or .toml)."
)
@click.option(
    "--players",
    default="2",
    show_default=True,
    help="A number, or names: 'Ana,Luis'; 'bot:LEVEL' is a computer player "
    "(beginner, easy, medium, hard, expert): 'Ana,bot:hard'.",
)
@click.option("--lexicon", "lexicon_name", help="Word list file, a dictionary name, or 'none'.")
@click.option("--seed", type=int, help="Seed for the bag, to replay the same game.")
@click.option(
    "--gcg",
    "gcg_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Save the game's record (GCG, with its dictionary) to this file when it ends.",
)
def play_command(
    variant_name: str,
    players: str,
    lexicon_name: str | None,
    seed: int | None,
    gcg_path: str | None,
) -> None:
    """Play a game at this terminal: 2–4 people taking turns, or against computer players."""
    from .lexicon import AnyWordLexicon
    from .terminal import play_game, seat_players

    v = get_variant(variant_name)
    if players.isdigit():
        names = [f"Player {i + 1}" for i in range(int(players))]
    else:
        names = [n.strip() for n in players.split(",") if n.strip()]
    if not v.min_players <= len(names) <= v.max_players:
        fail(f"{v.title} is for {v.min_players}–{v.max_players} players, not {len(names)}")
    lexicon = get_lexicon(lexicon_name, v) or AnyWordLexicon(v.alphabet)
    try:
        seat_players(names, v, lexicon, seed)  # bot levels and their dictionary, checked first
    except ValueError as e:
        fail(str(e))
    game = play_game(v, names, lexicon, seed=seed, console=console)
    if gcg_path:
        from pathlib import Path

        from .formats.gcg import write_gcg

        try:
            Path(gcg_path).write_text(write_gcg(game), encoding="utf-8")
        except OSError as e:
            fail(f"cannot write {gcg_path}: {e.strerror}")
        console.print(f"the game's record is in {gcg_path}", highlight=False)


from .analysis.command import analyze_command  # noqa: E402  (tablero/analysis/command.py)
from .competition.command import duplicate_command  # noqa: E402  (tablero/competition/)
from .puzzles.command import puzzle_command  # noqa: E402  (tablero/puzzles/)
from .server.cli import serve, worker  # noqa: E402  (the web app's commands: tablero/server/cli.py)

main.add_command(serve)
main.add_command(worker)
main.add_command(analyze_command)
main.add_command(duplicate_command)
main.add_command(puzzle_command)

# -- engine: moves, selfplay, bench (tablero/engine/) -----------------------------------------


@main.command("moves")
@word_change_options
@click.option("--all", "show_all", is_flag=True, help="Every move (default: the best --top).")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, best first.")
@click.option(
    "--by",
    "order",
    type=click.Choice(["equity", "score"]),
    default="equity",
    show_default=True,
    help="Best by equity (score + tiles kept), or by score alone (the top a duplicate "
    "game places; ties: a placement first, then the notation as text).",
)
@click.option("--variant", "variant_name", help="Rule set (name or .toml); default: the CGP's var.")
@click.option("--lexicon", "lexicon_name", help="Word list file, a dictionary name, or a .kwg.")
@click.option("--leaves", "leaves_path", help="Leave values (.klv); default: the game's own.")
@click.argument("cgp")
def moves_command(
    show_all: bool,
    top: int,
    as_json: bool,
    order: str,
    variant_name: str | None,
    lexicon_name: str | None,
    leaves_path: str | None,
    cgp: str,
) -> None:
    """The moves of the player to move in CGP, best equity first (score + tiles kept), or
    with --by score most points first."""
    from .engine.evaluation.leaves import KlvError, LeaveTable
    from .engine.movegen.candidates import candidates, score_order
    from .engine.players import ex_bonus_for, shipped_leaves

    position, lexicon = position_and_lexicon(cgp, variant_name, lexicon_name, quiet=as_json)
    v = position.variant
    if lexicon is None or not lexicon.can_search:
        fail("listing moves needs a dictionary: give --lexicon (a word list or a .kwg)")
    if not position.rack:
        fail("the CGP gives no rack for the player to move")
    try:
        leaves = LeaveTable.load(leaves_path, v.alphabet) if leaves_path else shipped_leaves(v.name)
    except KlvError as e:
        fail(str(e))
    found = candidates(position, lexicon, leaves, ex_bonus=ex_bonus_for(v))
    if order == "score":
        found.sort(key=score_order)
    shown = found if show_all else found[:top]
    if as_json:
        click.echo(json.dumps([c.to_dict() for c in shown], ensure_ascii=False))
        return
    from rich.table import Table

    table = Table(title=f"{len(found)} moves" + ("" if show_all else f", the best {len(shown)}"))
    for col in ("#", "move", "kind", "score", "leave", "equity"):
        table.add_column(col, justify="right" if col in ("#", "score", "equity") else "left")
    for i, c in enumerate(shown, 1):
        d = c.to_dict()
        table.add_row(str(i), c.notation, c.kind, str(c.score), str(d["leave"]), f"{c.equity:.1f}")
    console.print(table)


@main.command("selfplay")
@click.option("--variant", "variant_name", default="fise", show_default=True)
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
@click.option(
    "--bots", default="hard,hard", show_default=True, help="Levels at the seats: 'hard,medium'."
)
@click.option("--seed", type=int, help="Seed for the games (same seed, same games).")
@click.option("--lexicon", "lexicon_name", help="A dictionary or word list (default: the game's).")
@click.option(
    "--engine",
    type=click.Choice(["auto", "native", "game"]),
    default="auto",
    show_default=True,
    help="native: the game loop in C (hard and greedy only); game: every move through the "
    "rules engine; auto: native when it can.",
)
@click.option(
    "--cluster",
    help="Play on a Dask cluster: its scheduler's address (tcp://HOST:8786), or 'local' for "
    "--jobs worker processes here (pip install 'tablero[scale]').",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def selfplay_command(
    variant_name: str,
    games: int,
    jobs: int,
    bots: str,
    seed: int | None,
    lexicon_name: str | None,
    engine: str,
    cluster: str | None,
    as_json: bool,
) -> None:
    """Computer players against each other: scores, win rates, bingos, exchanges, speed.

    The hard and greedy levels play in the C game loop (``--engine native``, several hundred
    games a second); the others, or ``--engine game``, play every move through the rules
    engine, as at a table."""
    from .engine.movegen.candidates import native_available
    from .engine.players import LEVELS
    from .engine.selfplay import resolve_engine, run_selfplay
    from .engine.workpool import ClusterError

    v = get_variant(variant_name)
    levels = [b.strip().lower().removeprefix("bot:") for b in bots.split(",") if b.strip()]
    bad = [b for b in levels if b not in LEVELS]
    if bad:
        fail(f"no bot level {bad[0]!r}: use {', '.join(LEVELS)}")
    if not v.min_players <= len(levels) <= v.max_players:
        fail(f"{v.title} is for {v.min_players}–{v.max_players} players, not {len(levels)}")
    lexicon_arg = lexicon_name or v.lexicon
    lexicon = get_lexicon(lexicon_arg, v, quiet=True)
    if lexicon is None:
        fail(f"self-play needs a dictionary; {lexicon_arg!r} is not installed")
    try:
        engine = resolve_engine(engine, v, levels, lexicon)
    except ValueError as e:
        fail(str(e))
    finished = itertools.count(1)
    with progress_bar(f"{v.name}: {' vs '.join(levels)}", games, transient=as_json) as show:
        try:
            report = run_selfplay(
                v.name if v.source.startswith("builtin:") else str(v.source),
                levels,
                games,
                lexicon=lexicon_arg,
                jobs=jobs,
                seed=seed,
                on_game=lambda _s: show(next(finished)),
                engine=engine,
                cluster=cluster,
            )
        except (ValueError, ClusterError) as e:
            fail(str(e))
    data = report.to_dict()
    data["generator"] = "native" if native_available() else "reference"
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    from rich.table import Table

    table = Table(title=f"{data['games']} games of {v.title}")
    for col in ("bot", "average score", "win rate", "score a move", "bingos a game", "seats"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for level, row in data["bots"].items():
        per_move = row["score_per_move"]
        table.add_row(
            level,
            f"{row['average_score']:.1f}",
            f"{row['win_rate']:.1%}",
            "—" if per_move is None else f"{per_move:.1f}",
            f"{row['bingos_per_game']:.2f}",
            str(row["seats_played"]),
        )
    console.print(table)
    order = ", ".join(
        f"{o['order']}: {o['win_rate']:.1%} ({o['average_score']:.0f} points)"
        for o in data["by_order_of_play"]
    )
    console.print(f"win rate by order of play: {order}", highlight=False)
    if data.get("spread_sd") is not None:
        console.print(
            f"final spread, first player minus second: standard deviation {data['spread_sd']:.0f}"
            " points (a level d points a game better wins about Phi(d / it) of its games)",
            highlight=False,
        )
    console.print(
        f"per game: {data['bingos_per_game']} bingos, {data['exchanges_per_game']} exchanges, "
        f"{data['passes_per_game']} passes, {data['actions_per_game']} turns",
        highlight=False,
    )
    console.print(
        f"{data['games_per_second']} games/s over {data['seconds']} s with {jobs} job(s), "
        f"{data['generator']} move generator, {data['engine']} game loop",
        highlight=False,
    )


@main.command("bench")
@click.option("--games", "game_names", help="Games to measure, comma-separated (default: all).")
@click.option("--positions", type=click.IntRange(min=1), default=40, show_default=True)
@click.option("--seconds", type=float, default=1.0, show_default=True, help="Per figure.")
@click.option("--shared", type=click.Path(file_okay=False), help="The shared position set.")
@click.option("--lexicon", "lexicon_name", help="Dictionary for the games (default: their own).")
@click.option("--json", "as_json", is_flag=True)
def bench_command(
    game_names: str | None,
    positions: int,
    seconds: float,
    shared: str | None,
    lexicon_name: str | None,
    as_json: bool,
) -> None:
    """Move-generation figures: the shared positions (tests/data/bench) and each game."""
    from pathlib import Path

    from .alphabet import SPANISH
    from .engine.movegen.bench import bench_positions, find_shared_set, game_positions, shared_items
    from .engine.movegen.candidates import native_available
    from .engine.players import shipped_leaves
    from .lexicon.graph import graph_for_word_list

    if not native_available():
        err_console.print(
            "[yellow]note:[/] the native generator is not built; measuring the Python "
            "reference generator"
        )
    results = []
    directory = Path(shared) if shared else find_shared_set()
    if directory is not None and (directory / "es_words.txt.xz").is_file():
        words = graph_for_word_list(directory / "es_words.txt.xz", SPANISH, "es_words")
        items, counts, v = shared_items(directory)
        results.append(
            bench_positions(
                "shared",
                v,
                words,
                items,
                shipped_leaves(v.name),
                min_seconds=seconds,
                expected=counts,
            )
        )
    elif shared:
        fail(f"{shared}: no fise_positions.jsonl.xz and es_words.txt.xz there")
    names = [n.strip() for n in game_names.split(",")] if game_names else builtin_variant_names()
    for name in names:
        v = get_variant(name)
        lexicon = get_lexicon(lexicon_name, v, quiet=True)
        if lexicon is None or not lexicon.can_search:
            continue
        items = game_positions(v, lexicon, positions)
        results.append(
            bench_positions(name, v, lexicon, items, shipped_leaves(v.name), min_seconds=seconds)
        )
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in results], ensure_ascii=False))
        return
    from rich.table import Table

    table = Table(
        title="Move generation, one thread",
        caption="all: every move generated and scored (as Python objects: built too); "
        "best: the best move by equity only",
        caption_justify="left",
    )
    heads = ("set", "gen", "moves/pos", "all pos/s", "all moves/s", "objects/s", "best pos/s")
    for col in (*heads, "check"):
        table.add_column(col, justify="left" if col in ("set", "gen") else "right")
    for r in results:
        check = "" if r.mismatches is None else f"{r.mismatches} differ" if r.mismatches else "ok"
        table.add_row(
            f"{r.name} ({r.positions})",
            r.generator,
            f"{r.moves / r.positions:.0f}",
            f"{r.count_positions_per_s:,.0f}",
            f"{r.count_moves_per_s:,.0f}",
            f"{r.objects_moves_per_s:,.0f}",
            f"{r.best_positions_per_s:,.0f}",
            check,
        )
    console.print(table)


if __name__ == "__main__":  # pragma: no cover
    main()
