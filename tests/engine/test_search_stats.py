"""The walk counts of a ``-DTB_STATS`` build of the C core (benchmarks/bench_anchor_work.py).

The shipped build counts nothing and says so; a stats build, compiled here the way the
benchmark compiles it, counts consistent numbers and finds the same best moves as the shipped
build. It runs in a child process: one process cannot hold both builds under one name.
"""

from __future__ import annotations

import importlib.util
import json
import lzma
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tablero.alphabet import SPANISH
from tablero.engine.movegen import _native
from tablero.engine.movegen.native import NativeGenerator
from tablero.formats.cgp import read_cgp
from tablero.lexicon.graph import graph_for_word_list

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "data" / "bench"


def bench_cgps() -> list[str]:
    """Three mid-game boards of the shared bench set (many anchors each)."""
    with lzma.open(BENCH / "fise_positions.jsonl.xz", "rt", encoding="utf-8") as f:
        cgps = [json.loads(line)["cgp"] for line in f]
    return [cgps[10], cgps[25], cgps[40]]


CHILD = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import bench_anchor_work as b
core = b.load_stats_core(Path(sys.argv[2]))
from tablero.alphabet import SPANISH
from tablero.engine.movegen.native import NativeGenerator
from tablero.formats.cgp import read_cgp
from tablero.lexicon.graph import graph_for_word_list
lexicon = graph_for_word_list(Path(sys.argv[4]) / "es_words.txt.xz", SPANISH, "es_words")
out = []
for cgp in json.loads(sys.argv[3]):
    p = read_cgp(cgp)
    gen = NativeGenerator(p.variant, lexicon)
    core.reset_search_stats()
    best = [(m.score, m.equity) for m in gen.best(p.board, p.rack, 3)]
    out.append({"best": best, "stats": core.search_stats()})
print(json.dumps(out))
"""


def bench_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_anchor_work", ROOT / "benchmarks" / "bench_anchor_work.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_build_counts_nothing() -> None:
    assert _native.search_stats() is None
    assert _native.reset_search_stats() is None


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc builds the stats core")
def test_a_stats_build_counts_the_walk_and_finds_the_same_moves(tmp_path: Path) -> None:
    core = bench_module().build_stats_core(tmp_path)
    cgps = bench_cgps()
    child = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD,
            str(ROOT / "benchmarks"),
            str(core),
            json.dumps(cgps),
            str(BENCH),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    answers = json.loads(child.stdout)
    lexicon = graph_for_word_list(BENCH / "es_words.txt.xz", SPANISH, "es_words")
    for cgp, answer in zip(cgps, answers, strict=True):
        p = read_cgp(cgp)
        shipped = NativeGenerator(p.variant, lexicon).best(p.board, p.rack, 3)
        assert [list(x) for x in answer["best"]] == [[m.score, m.equity] for m in shipped]
        st = answer["stats"]
        assert st["searches"] == 1
        assert 0 < st["searched"] <= st["anchors"]
        assert st["nodes"] > 0
        assert st["nodes_top"] <= st["nodes"] and st["nodes_no_insert"] <= st["nodes"]
        assert st["nodes_no_insert_no_board"] <= st["nodes_no_insert_one_board"]
        assert st["nodes_no_insert_one_board"] <= st["nodes_no_insert"]
