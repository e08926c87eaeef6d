"""GCG: a finished (or running) game as text, one line per turn, as Scrabble programs write it.

Specified in ``docs/formats.md`` ("GCG"). A line per turn::

    #character-encoding UTF-8
    #variant fise
    #lexicon es
    #player1 Ana Ana María
    #player2 Luis Luis
    >Ana: ACSAEIR 8H CASA +12 12
    >Luis: LLOTUEZ H7 .[LL]O... +9 9

Ours beyond the common format: ``#variant`` (our rule set's name), digraph tiles ``[CH]`` as in
CGP, ``CAMBIO H8 D`` moves, a withdrawn play ``--`` after a lost turn too, end-of-game lines
``(time)`` and ``(blank)`` for Letras Top's blank penalty, pragmas ``#timeout``, ``#skip``,
``#shuffle`` and ``#resign`` for what happened without points, and lines without a rack
(``>Ana: 8H CASA +12 12``) for a game still being played, whose racks are secret.

``#resign nick`` stands where the player resigned: they have no turn after it, not even an
end-of-game line (their tiles were set aside, so they neither cost them nor go to anyone).

``read_gcg`` parses a file; ``replay_gcg`` rebuilds the board from the moves and checks that
every recorded score is what the rules give, returning the final scores.
"""

from __future__ import annotations

import codecs
import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..board import Board
from ..game import Game
from ..lexicon import LexiconError
from ..lexicon.amend import WordChanges
from ..moves import Cambio, Exchange, NotationError, Place, format_move, parse_move, parse_rack
from ..rules import IllegalMove, check_cambio, check_placement, resolve_place
from ..scoring import score_cambio, score_placement
from ..variant import BLANK, Coord, Variant, VariantError, load_variant

__all__ = [
    "GcgError",
    "GcgGame",
    "GcgPlayer",
    "GcgStep",
    "GcgTurn",
    "decode_gcg",
    "gcg_variant",
    "read_gcg",
    "replay_gcg",
    "walk_gcg",
    "write_gcg",
]


WORDS_PER_LINE = 20
"""Words on one ``#words-added`` / ``#words-removed`` line; a long list takes several."""


class GcgError(ValueError):
    """A GCG file that is malformed, or whose moves do not give its recorded scores."""


@dataclass(frozen=True)
class GcgPlayer:
    nick: str
    name: str


@dataclass(frozen=True)
class GcgTurn:
    """One ``>`` line."""

    line: int
    player: int
    rack: str | None
    """As written (``AB?[CH]``); None when the line has no rack."""
    kind: str
    """place, exchange, pass, withdrawn, cambio, end (an end-of-game adjustment)."""
    move: str
    """The move as written: ``8H CA.A``, ``-ABC``, ``-``, ``--``, ``CAMBIO H8 D``, ``(ABC)``."""
    score: int
    total: int


@dataclass
class GcgGame:
    players: list[GcgPlayer]
    turns: list[GcgTurn]
    variant: str | None = None
    lexicon: str | None = None
    title: str | None = None
    pragmas: list[tuple[str, str]] = field(default_factory=list)
    """Every ``#name value`` line in order (notes, timeouts, ...)."""
    resignations: list[tuple[int, int]] = field(default_factory=list)
    """``(line, player)`` for each ``#resign``, in the order the players resigned."""
    words_added: list[str] = field(default_factory=list)
    """A club's words added to the dictionary (``#words-added``), as written."""
    words_removed: list[str] = field(default_factory=list)
    """A club's words banned from the dictionary (``#words-removed``), as written."""


# -- writing -----------------------------------------------------------------------------------


def _nicks(names: list[str]) -> list[str]:
    """GCG nicks are single tokens, unique, without ':'."""
    out: list[str] = []
    for i, name in enumerate(names):
        base = re.sub(r"[\s:#>]+", "_", name).strip("_") or f"p{i + 1}"
        nick, k = base, 2
        while nick in out:
            nick, k = f"{base}_{k}", k + 1
        out.append(nick)
    return out


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _rack_text(rack: list[str]) -> str:
    return "".join(f"[{t}]" if len(t) > 1 else t for t in rack)


def write_gcg(game: Game, *, hide_racks: bool = False, title: str | None = None) -> str:
    """The game as GCG. ``hide_racks`` leaves out every rack and which tiles were exchanged
    (for a game still being played); the end-of-game lines are written once it is over."""
    names = [p.name for p in game.players]
    nicks = _nicks(names)
    v = game.variant
    out = ["#character-encoding UTF-8"]
    if title:
        out.append(f"#title {_one_line(title)}")
    out.append(f"#variant {v.name}")
    out.append(f"#lexicon {game.lexicon.info().name}")
    changes = game.lexicon.applied_changes
    if changes:
        for pragma, listed in (("words-added", changes.added), ("words-removed", changes.removed)):
            ordered = sorted(listed)
            out.extend(
                f"#{pragma} {' '.join(ordered[i : i + WORDS_PER_LINE])}"
                for i in range(0, len(ordered), WORDS_PER_LINE)
            )
    out.extend(
        f"#player{i + 1} {nick} {_one_line(n)}"
        for i, (nick, n) in enumerate(zip(nicks, names, strict=True))
    )
    # Step a fresh game through the actions to know each rack before its move.
    g = Game(
        v,
        names,
        game.lexicon,
        seed=game.seed,
        start_rule=game.start_rule,
        blank_rank=game.blank_rank,
        first=game.assigned_first,
    )
    totals = [0] * len(names)

    def line(seat: int, rack: list[str] | None, move: str, score: int) -> None:
        totals[seat] += score
        fields = [f">{nicks[seat]}:"]
        if not hide_racks and rack:
            fields.append(_rack_text(rack))
        fields += [move, f"{score:+d}", str(totals[seat])]
        out.append(" ".join(fields))

    for event in game.log[1:]:
        kind = event.get("type")
        if kind == "move":
            seat = int(event["seat"])
            rack = list(g.players[seat].rack)
            g.play(str(event["move"]), float(event.get("elapsed", 0.0)))
            _write_move(line, g, event, seat, rack, hide_racks)
        elif kind == "challenge":
            target = int(event["target"])
            g.challenge(int(event["seat"]), float(event.get("elapsed", 0.0)))
            who = nicks[int(event["seat"])]
            if event.get("result") == "challenge_upheld":
                line(target, list(g.players[target].rack), "--", int(event.get("score", 0)))
                words = ", ".join(str(w) for w in event.get("words", []))
                out.append(f"#note {who} challenged: {words} not in the dictionary")
            else:
                out.append(f"#note {who} challenged: the words are valid")
        elif kind == "timeout":
            g.timeout()
            out.append(f"#timeout {nicks[int(event['seat'])]}")
        elif kind == "resign":
            g.resign(int(event["seat"]), float(event.get("elapsed", 0.0)))
            out.append(f"#resign {nicks[int(event['seat'])]}")
        elif kind == "skip":
            out.append(f"#skip {nicks[int(event['seat'])]}")
        elif kind == "shuffle":
            out.append(f"#shuffle {nicks[int(event['seat'])]}")
    if game.result is not None:
        for seat, adjustments in enumerate(game.result.adjustments):
            rack = game.players[seat].rack
            for why, points in adjustments:
                if why == "tiles left on the rack":
                    line(seat, rack, f"({_rack_text(rack)})", points)
                elif why == "the others' tiles":
                    others = [t for i, p in enumerate(game.players) if i != seat for t in p.rack]
                    line(seat, None, f"({_rack_text(others)})", points)
                elif why == "over time":
                    line(seat, rack, "(time)", points)
                elif "blank" in why:
                    line(seat, rack, "(blank)", points)
                else:
                    line(seat, rack, "(adjustment)", points)
    return "\n".join(out) + "\n"


def _write_move(
    line: Callable[[int, list[str] | None, str, int], None],
    g: Game,
    event: dict[str, Any],
    seat: int,
    rack: list[str],
    hide: bool,
) -> None:
    result = str(event["result"])
    notation = str(event["move"])
    move = g.parse(notation)
    score = int(event.get("score", 0))
    if result in ("placed", "lost_turn") and isinstance(move, Place):
        line(seat, rack, format_move(move, through="dot"), score)
        if result == "lost_turn":
            line(seat, rack, "--", 0)
    elif result == "exchanged" and isinstance(move, Exchange):
        line(seat, rack, f"-{len(move.tiles)}" if hide else notation, 0)
    elif result == "cambio" and isinstance(move, Cambio):
        line(seat, rack, notation, score)
    else:
        line(seat, rack, "-", 0)


# -- reading -----------------------------------------------------------------------------------

_POSITION = re.compile(r"^(\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2})$")
_SCORE = re.compile(r"^[+-]\d+$")


def decode_gcg(data: bytes) -> str:
    """The text of a GCG file as other programs write it: the encoding its
    ``#character-encoding`` line names (the convention's first line), else UTF-8 (a byte
    order mark dropped), else Latin-1, which older Windows programs wrote."""
    head = data[:400].decode("ascii", errors="replace")
    if m := re.search(r"^#character-encoding[ \t]+(\S+)", head, re.M):
        name = m.group(1)
        try:
            codecs.lookup(name)
            return data.decode(name)
        except LookupError:
            raise GcgError(f"#character-encoding {name}: not an encoding we know") from None
        except UnicodeDecodeError as e:
            why = f"the file is not {name} as its #character-encoding says: {e.reason}"
            raise GcgError(why) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_gcg(text: str) -> GcgGame:
    """Parse GCG text; GcgError names the line that is wrong.

    Lines end as they like (DOS ends too). A ``#note`` may go on over the lines after it: a
    line that starts with neither '#' nor '>' right after a note is part of it."""
    game = GcgGame(players=[], turns=[])
    nicks: dict[str, int] = {}
    in_note = False
    for number, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if not s:
            continue
        if in_note and not s.startswith(("#", ">")):
            name, value = game.pragmas[-1]
            game.pragmas[-1] = (name, f"{value}\n{s}")
            continue
        in_note = False
        if s.startswith("#"):
            name, _, value = s[1:].partition(" ")
            value = value.strip()
            game.pragmas.append((name, value))
            in_note = name == "note"
            if m := re.fullmatch(r"player(\d)", name):
                nick, _, full = value.partition(" ")
                if not nick:
                    raise GcgError(f"line {number}: #{name} needs a nick")
                if int(m.group(1)) != len(game.players) + 1:
                    raise GcgError(f"line {number}: #{name} out of order")
                nicks[nick] = len(game.players)
                game.players.append(GcgPlayer(nick, full.strip() or nick))
            elif name == "variant":
                game.variant = value
            elif name == "lexicon":
                game.lexicon = value
            elif name == "title":
                game.title = value
            elif name == "words-added":
                game.words_added.extend(value.split())
            elif name == "words-removed":
                game.words_removed.extend(value.split())
            elif name == "resign":
                game.resignations.append((number, _read_resign(game, value, number, nicks)))
            continue
        if not s.startswith(">"):
            raise GcgError(f"line {number}: a line starts with '#' or '>': {s[:40]!r}")
        game.turns.append(_read_turn(s, number, nicks))
    if not game.players:
        raise GcgError("no #player1 line")
    return game


def _read_resign(game: GcgGame, nick: str, number: int, nicks: dict[str, int]) -> int:
    """The player a ``#resign`` line names; a player resigns once."""
    if nick not in nicks:
        raise GcgError(f"line {number}: #resign {nick!r}: not a player (no #player line names it)")
    player = nicks[nick]
    if any(p == player for _, p in game.resignations):
        raise GcgError(f"line {number}: {nick} has already resigned")
    return player


def _read_turn(s: str, number: int, nicks: dict[str, int]) -> GcgTurn:
    who, colon, rest = s[1:].partition(":")
    if not colon:
        raise GcgError(f"line {number}: expected '>nick: ...'")
    if who not in nicks:
        raise GcgError(f"line {number}: {who!r} is not a player (no #player line names it)")
    tokens = rest.split()
    if len(tokens) < 3:
        raise GcgError(f"line {number}: expected a move, a score and a total")
    score_text, total_text = tokens[-2], tokens[-1]
    if not _SCORE.match(score_text):
        raise GcgError(f"line {number}: {score_text!r} is not a score like +12 or -5")
    if not re.fullmatch(r"-?\d+", total_text):
        raise GcgError(f"line {number}: {total_text!r} is not a total")
    middle = tokens[:-2]
    first = middle[0]
    has_rack = not (
        _POSITION.match(first)
        or first.startswith(("-", "("))
        or (first.upper() == "CAMBIO" and len(middle) == 3)
    )
    rack = middle[0] if has_rack else None
    move_tokens = middle[1:] if has_rack else middle
    if not move_tokens:
        raise GcgError(f"line {number}: no move after the rack")
    move = " ".join(move_tokens)
    head = move_tokens[0]
    if head == "--":
        kind = "withdrawn"
    elif head == "-":
        kind = "pass"
    elif head.startswith("-"):
        kind = "exchange"
    elif head.startswith("("):
        kind = "end"
    elif head.upper() == "CAMBIO":
        kind = "cambio"
    elif _POSITION.match(head) and len(move_tokens) == 2:
        kind = "place"
    else:
        raise GcgError(f"line {number}: {move!r} is not a move")
    return GcgTurn(number, nicks[who], rack, kind, move, int(score_text), int(total_text))


# -- replaying ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GcgStep:
    """One ``>`` line as ``walk_gcg`` reaches it: the board and totals before it."""

    index: int
    """The turn's place in ``GcgGame.turns``."""
    turn: GcgTurn
    board: Board
    """The board before the turn. It is the walk's own board: copy it to keep it."""
    totals: tuple[int, ...]
    """Every player's total before the turn."""
    withdrawn_next: bool
    """The next line takes this placement back (``--``): the word was challenged off."""


def replay_gcg(gcg: GcgGame, variant: Variant | None = None) -> list[int]:
    """Rebuild the board move by move, checking every recorded score and total against the
    rules (end-of-game rack lines against the tiles' values), and that no player has a turn
    after their ``#resign``. Returns the final scores.

    Words are not looked up: the file is the record of what the players accepted.
    """
    totals = [0] * len(gcg.players)
    for step in walk_gcg(gcg, variant):
        totals = list(step.totals)
        totals[step.turn.player] += step.turn.score
    return totals


def gcg_variant(gcg: GcgGame, variant: Variant | None = None) -> Variant:
    """The rules a file is played under: ``variant`` if given, else its ``#variant`` (FISE
    when it has none, as files from other programs are Spanish tournament games here), with
    the club's word changes the file records (``#words-added``, ``#words-removed``)."""
    try:
        chosen = variant if variant is not None else load_variant(gcg.variant or "fise")
    except VariantError as e:
        raise GcgError(str(e)) from None
    if not (gcg.words_added or gcg.words_removed):
        return chosen
    try:
        recorded = WordChanges.of(gcg.words_added, gcg.words_removed, chosen.alphabet)
        changes = chosen.word_changes.merged(recorded)
    except LexiconError as e:
        raise GcgError(f"#words-added / #words-removed: {e}") from None
    return dataclasses.replace(chosen, word_changes=changes)


def walk_gcg(gcg: GcgGame, variant: Variant | None = None) -> Iterator[GcgStep]:
    """Each turn with the board and totals before it, checked as ``replay_gcg`` says: a
    GcgError names the first line that does not add up (after the steps before it)."""
    v = gcg_variant(gcg, variant)
    board = Board(v.rows, v.columns)
    totals = [0] * len(gcg.players)
    last_placed: dict[int, list[Coord]] = {}
    turns = gcg.turns
    resigned_at = {player: line for line, player in gcg.resignations}
    for i, turn in enumerate(turns):
        resigned_line = resigned_at.get(turn.player)
        if resigned_line is not None and turn.line > resigned_line:
            nick = gcg.players[turn.player].nick
            raise GcgError(
                f"line {turn.line}: {nick} resigned on line {resigned_line} and has no more turns"
            )
        withdrawn_next = (
            i + 1 < len(turns)
            and turns[i + 1].kind == "withdrawn"
            and turns[i + 1].player == turn.player
        )
        yield GcgStep(i, turn, board, tuple(totals), withdrawn_next)
        expected = turn.score
        try:
            if turn.kind == "place":
                expected = _replay_place(v, board, turn, withdrawn_next, last_placed)
            elif turn.kind == "cambio":
                expected = _replay_cambio(v, board, turn)
            elif turn.kind == "withdrawn":
                for coord in last_placed.pop(turn.player, []):
                    board[coord] = None
            elif turn.kind in ("pass", "exchange"):
                expected = 0
            elif turn.kind == "end":
                _check_end_line(v, turn)
        except (IllegalMove, NotationError) as e:
            raise GcgError(f"line {turn.line}: {turn.move}: {e}") from None
        if turn.score != expected:
            raise GcgError(
                f"line {turn.line}: {turn.move} scores {expected} by the rules, the file says "
                f"{turn.score}"
            )
        totals[turn.player] += turn.score
        if totals[turn.player] != turn.total:
            raise GcgError(
                f"line {turn.line}: the total comes to {totals[turn.player]}, the file says "
                f"{turn.total}"
            )


def _replay_place(
    v: Variant, board: Board, turn: GcgTurn, withdrawn_next: bool, last: dict[int, list[Coord]]
) -> int:
    place = parse_move(turn.move, v.alphabet, v.rows, v.columns)
    if not isinstance(place, Place):
        raise GcgError(f"line {turn.line}: {turn.move!r} is not a placement")
    new, _ = resolve_place(place, board)
    needed = [t.rack_form for _, t in new]
    rack = list(parse_rack(turn.rack, v.alphabet)) if turn.rack else needed
    chk = check_placement(v, board, place, rack)
    score = score_placement(v, list(chk.words), len(chk.new_tiles), board.is_empty()).total
    if withdrawn_next and turn.score == 0:
        last[turn.player] = []  # a lost turn: the word was refused and never lay on the board
        return 0
    for coord, tile in chk.new_tiles:
        board[coord] = tile
    last[turn.player] = [c for c, _ in chk.new_tiles]
    return score


def _replay_cambio(v: Variant, board: Board, turn: GcgTurn) -> int:
    move = parse_move(turn.move, v.alphabet, v.rows, v.columns)
    if not isinstance(move, Cambio):
        raise GcgError(f"line {turn.line}: {turn.move!r} is not a CAMBIO")
    rack = list(parse_rack(turn.rack, v.alphabet)) if turn.rack else [move.tile.rack_form]
    words = check_cambio(v, board, move, rack)
    board[move.square] = move.tile
    return score_cambio(v, words).total


def _check_end_line(v: Variant, turn: GcgTurn) -> None:
    inner = turn.move.strip()[1:-1]
    if inner in ("time", "blank", "adjustment", "challenge") or not inner:
        return
    try:
        tiles = parse_rack(inner, v.alphabet)
    except NotationError as e:
        raise GcgError(f"line {turn.line}: ({inner}): {e}") from None
    value = sum(v.value(t) for t in tiles if t in v.tiles)
    own = turn.rack is not None and Counter(parse_rack(turn.rack, v.alphabet)) == Counter(tiles)
    allowed = {-value} if own else {value, 2 * value, -value}
    if BLANK in tiles and not v.has_blanks:
        raise GcgError(f"line {turn.line}: {v.title} has no blanks")
    if turn.score not in allowed:
        raise GcgError(
            f"line {turn.line}: ({inner}) is worth {value}; the file says {turn.score:+d}"
        )
