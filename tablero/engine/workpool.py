"""Where many games run: this machine's cores, or a Dask cluster across machines.

Self-play statistics, leave learning and win-probability tables all need many independent games,
cut into chunks that a worker plays and returns. ``work_pool`` gives the executor that runs the
chunks: processes on this machine (``jobs`` of them), or the workers of a Dask cluster
(``cluster``: a scheduler's address such as ``tcp://10.0.0.5:8786``, or ``local`` for a cluster
of ``jobs`` worker processes started here, the same code path on one machine). The callers use
only ``submit`` and ``map`` of ``concurrent.futures.Executor``, so the work is the same
function wherever it runs, and the same seeds give the same games.

A remote worker needs tablero installed at the same version (``pip install 'tablero[scale]'``)
with its word graphs built; docs/bots.md, "Learning at scale", has the commands. Dask is an
optional dependency, imported only when a cluster is asked for.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

__all__ = ["ClusterError", "work_pool"]


class ClusterError(RuntimeError):
    """A cluster that cannot be used: Dask missing, or no scheduler at the address."""


@contextmanager
def work_pool(
    jobs: int = 1, cluster: str | None = None, connect_timeout: float = 10.0
) -> Iterator[Executor]:
    """An executor for independent chunks of work (see the module); closed on exit.
    ``connect_timeout``: seconds to wait for a remote scheduler to answer."""
    if jobs < 1:
        raise ValueError(f"jobs: at least 1, got {jobs}")
    if not cluster:
        context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            yield pool
        return
    try:
        # Dask's distributed has no type hints: held as Any.
        dask: Any = importlib.import_module("distributed")
    except ImportError:
        raise ClusterError(
            "a cluster needs Dask's distributed package: pip install 'tablero[scale]'"
        ) from None
    local: Any = None
    try:
        if cluster == "local":
            local = dask.LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = dask.Client(local)
        else:
            client = dask.Client(cluster, timeout=connect_timeout)
    except OSError as e:
        if local is not None:
            local.close()
        raise ClusterError(f"no Dask scheduler answers at {cluster} ({e})") from None
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()
        if local is not None:
            local.close()
