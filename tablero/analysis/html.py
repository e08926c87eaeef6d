"""The analysis as one self-contained web page: the players' summary, then every move with the
board before it (SVG), the move played (solid blue frame) and the engine's best (dashed green
frame, its tiles drawn faintly where the move played did not put the same), and the best moves
as a table. No script and no outside file: it opens from disk and prints.
"""

from __future__ import annotations

from html import escape

from ..board import Board, Tile
from ..formats.cgp import read_cgp
from ..moves import NotationError, Place, parse_move
from ..rules import IllegalMove, resolve_place
from ..squares import square_colour
from ..variant import Coord, Variant
from .report import MISTAKE_SIZES, GameAnalysis, MoveAnalysis

__all__ = ["analysis_html"]

CELL = 30
MARGIN = 20
PLAIN = "#f4efe1"
TILE = "#f6dca0"
PLAYED = "#1d4ed8"
BEST = "#15803d"

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem auto; max-width: 60rem;
  padding: 0 1rem; color: #1f2933; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin: 0 0 .4rem; }
table { border-collapse: collapse; margin: .4rem 0; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid #d9d4c7; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.played td { font-weight: 600; background: #e8eefc; }
section.move { display: flex; flex-wrap: wrap; gap: 1.2rem; align-items: flex-start;
  border-top: 1px solid #d9d4c7; padding: 1rem 0; }
section.move > div { flex: 1 1 20rem; }
.loss { color: #b42318; } .best { color: #15803d; }
.legend span { display: inline-block; margin-right: 1rem; }
.key { display: inline-block; width: .9rem; height: .9rem; vertical-align: -2px;
  margin-right: .3rem; border: 3px solid; }
code { font-size: .95em; }
"""


def analysis_html(analysis: GameAnalysis, variant: Variant, title: str | None = None) -> str:
    """The page for ``analysis`` of a game played under ``variant``."""
    heading = title or f"{variant.title}: analysis"
    method = "simulation" if analysis.method == "sim" else "static equity"
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(heading)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(heading)}</h1>",
        f"<p>{escape(variant.title)} · dictionary {escape(analysis.lexicon)} · "
        f"judged by {method} · {len(analysis.moves)} moves</p>",
        _players_table(analysis),
        '<p class="legend"><span><span class="key" style="border-color:'
        f'{PLAYED}"></span>move played</span><span><span class="key" style="border-color:'
        f'{BEST};border-style:dashed"></span>best move</span></p>',
    ]
    parts.extend(_move_section(m, variant) for m in analysis.moves)
    parts.append("</body></html>")
    return "\n".join(parts)


def _players_table(analysis: GameAnalysis) -> str:
    sizes = [name for name, _ in reversed(MISTAKE_SIZES)]
    head = "".join(f'<th class="num">{escape(s)} mistakes</th>' for s in sizes)
    rows = []
    for p in analysis.players:
        cells = "".join(f'<td class="num">{p.mistakes[s]}</td>' for s in sizes)
        rows.append(
            f"<tr><td>{escape(p.name)}</td><td class=num>{p.moves}</td>"
            f'<td class="num">{p.mean_equity_loss:.2f}</td>'
            f'<td class="num">{p.missed_bingos}</td>{cells}</tr>'
        )
    return (
        '<table><thead><tr><th>player</th><th class="num">moves judged</th>'
        '<th class="num">mean equity loss</th><th class="num">bingos missed</th>'
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _move_section(m: MoveAnalysis, variant: Variant) -> str:
    board = read_cgp(m.cgp, variant).board
    played = _new_tiles(m.played, variant, board)
    best = _new_tiles(m.best, variant, board)
    if m.equity_loss is None:
        verdict = "not judged (the tiles exchanged are not in the file)"
    elif m.equity_loss == 0:
        verdict = '<span class="best">the best move</span>'
    else:
        verdict = f'<span class="loss">rank {m.rank}, {m.equity_loss:.2f} below the best</span>'
    note = {
        "withdrawn": " (challenged off: a lost turn)",
        "not_listed": " (a word the dictionary does not have)",
    }.get(m.note or "", "")
    rack = m.cgp.split(" ")[1].split("/")[0]
    rows = []
    for i, alt in enumerate(m.top, 1):
        rows.append(_row(str(i), alt.move, alt.score, alt.leave, alt.equity, alt.played))
    if not any(alt.played for alt in m.top) and m.equity is not None:
        rows.append(_row(str(m.rank), m.played, m.score, "", m.equity, True))
    table = (
        '<table><thead><tr><th class="num">#</th><th>move</th><th class="num">score</th>'
        f'<th>leave</th><th class="num">equity</th></tr></thead><tbody>{"".join(rows)}'
        "</tbody></table>"
    )
    return (
        f'<section class="move" id="ply-{m.ply}"><div>{_board_svg(board, variant, played, best)}'
        f"</div><div><h2>{m.ply}. {escape(m.player)}: <code>{escape(m.played)}</code> "
        f"{m.score:+d}{escape(note)}</h2><p>Rack <code>{escape(rack)}</code> · {verdict} · "
        f"best <code>{escape(m.best)}</code> {m.best_score:+d}</p>{table}</div></section>"
    )


def _row(rank: str, move: str, score: int, leave: str, equity: float, played: bool) -> str:
    cls = ' class="played"' if played else ""
    return (
        f'<tr{cls}><td class="num">{escape(rank)}</td><td><code>{escape(move)}</code></td>'
        f'<td class="num">{score}</td><td><code>{escape(leave)}</code></td>'
        f'<td class="num">{equity:.2f}</td></tr>'
    )


def _new_tiles(text: str, variant: Variant, board: Board) -> dict[Coord, Tile]:
    """The tiles a written placement puts down (nothing for other moves)."""
    try:
        move = parse_move(text, variant.alphabet, variant.rows, variant.columns)
        if not isinstance(move, Place):
            return {}
        return dict(resolve_place(move, board)[0])
    except (NotationError, IllegalMove):
        return {}


def _board_svg(
    board: Board, variant: Variant, played: dict[Coord, Tile], best: dict[Coord, Tile]
) -> str:
    width = MARGIN + variant.columns * CELL + 2
    height = MARGIN + variant.rows * CELL + 2
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="the board before the move" '
        'font-family="system-ui, sans-serif">'
    ]
    for c in range(variant.columns):
        x = MARGIN + c * CELL + CELL / 2
        out.append(f'<text x="{x}" y="14" font-size="11" text-anchor="middle">{chr(65 + c)}</text>')
    for r in range(variant.rows):
        y = MARGIN + r * CELL + CELL / 2 + 4
        out.append(f'<text x="10" y="{y}" font-size="11" text-anchor="middle">{r + 1}</text>')
    for r in range(variant.rows):
        for c in range(variant.columns):
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            code = variant.layout[r][c]
            kind = variant.squares.get(code)
            fill = square_colour(kind) if kind is not None else PLAIN
            out.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
                'stroke="#fff" stroke-width="1"/>'
            )
            tile = board[(r, c)] or played.get((r, c))
            if tile is not None:
                out.append(_tile(x, y, tile, 1.0))
            elif (r, c) in best:
                out.append(_tile(x, y, best[(r, c)], 0.45))
            if (r, c) in played:
                out.append(_frame(x, y, PLAYED, dashed=False))
            if (r, c) in best:
                out.append(_frame(x, y, BEST, dashed=True))
    out.append("</svg>")
    return "".join(out)


def _tile(x: int, y: int, tile: Tile, opacity: float) -> str:
    letter = tile.letter.lower() if tile.blank else tile.letter
    size = 13 if len(letter) > 1 else 17
    return (
        f'<g opacity="{opacity}"><rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
        f'height="{CELL - 4}" rx="3" fill="{TILE}"/><text x="{x + CELL / 2}" '
        f'y="{y + CELL / 2 + 6}" font-size="{size}" font-weight="600" text-anchor="middle">'
        f"{escape(letter)}</text></g>"
    )


def _frame(x: int, y: int, colour: str, dashed: bool) -> str:
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    inset = 4 if dashed else 1.5
    return (
        f'<rect x="{x + inset}" y="{y + inset}" width="{CELL - 2 * inset}" '
        f'height="{CELL - 2 * inset}" fill="none" stroke="{colour}" stroke-width="2.5"{dash}/>'
    )
