"""Many games on a Dask cluster give what they give on this machine's processes.

The cluster here is ``local``: Dask's scheduler and two worker processes started by the test,
the same client code that a scheduler on another machine is reached with."""

from __future__ import annotations

import socket

import pytest

from tablero.engine.evaluation.winprob import collect_samples
from tablero.engine.selfplay import run_selfplay
from tablero.engine.workpool import ClusterError, work_pool


def test_win_samples_on_a_cluster_equal_those_played_here() -> None:
    here = collect_samples("fise", 12, seed=5, chunk=3)
    there = collect_samples("fise", 12, seed=5, chunk=3, jobs=2, cluster="local")
    assert there == here
    assert sum(n for n, _ in here.values()) > 12 * 10


def test_self_play_on_a_cluster_plays_the_same_games() -> None:
    here = run_selfplay("fise", ["hard", "greedy"], 16, seed=3, engine="native")
    there = run_selfplay("fise", ["hard", "greedy"], 16, seed=3, engine="native", cluster="local")
    assert there.games == here.games == 16
    assert there.score_sum == here.score_sum
    assert there.wins == here.wins


def test_a_cluster_that_does_not_answer_is_a_clear_error() -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    no_scheduler = pytest.raises(ClusterError, match=f"no Dask scheduler answers at {address}")
    with no_scheduler, work_pool(1, address, connect_timeout=1.0):
        pass
    with pytest.raises(ValueError, match="jobs: at least 1"), work_pool(0):
        pass
