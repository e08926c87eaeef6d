"""End-to-end browser tests: the real server (``tablero serve`` in a subprocess, on a temporary
SQLite file) and Debian's Chromium driven by Playwright for Python.

Playwright's own browser download does not work on these machines, so the tests launch
``/usr/bin/chromium`` (``apt-get install chromium``; ``pip install playwright``). Where either
is missing the tests are skipped, unless ``TABLERO_REQUIRE_BROWSER=1`` (set by ``.ci/run``)
says they must run, and then they fail.

Screenshots go to ``$TABLERO_ARTIFACTS`` (default ``artifacts/screenshots/`` at the repository
root), so a CI run keeps pictures of what the tests saw.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tablero.lexicon import load_lexicon
from tablero.variant import load_variant

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
CHROMIUM = os.environ.get("TABLERO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
TIMEOUT_MS = 15_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright)"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest.fixture(scope="session", autouse=True)
def _browser_available() -> None:
    problem = _missing()
    if problem:
        if os.environ.get("TABLERO_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests required but {problem}")
        pytest.skip(problem)


# -- the server ----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The running server: its base URL and a few direct API calls for setting up tables."""

    def __init__(self, base: str, data: Path | None = None) -> None:
        self.base = base
        self.data = data
        """The server's data folder ($TABLERO_DATA): the dictionaries installed there."""

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as e:
            raise AssertionError(f"{method} {path} -> {e.code}: {e.read().decode()}") from None

    def upload(self, toml_name: str) -> str:
        request = urllib.request.Request(
            self.base + "/api/variants/upload",
            data=(DATA / toml_name).read_bytes(),
            method="POST",
            headers={"Content-Type": "text/plain; charset=utf-8"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return str(json.loads(response.read())["id"])

    def sit(self, table_id: str, seat: int, nickname: str) -> str:
        """Take a seat through the API; returns the seat's secret token."""
        body = {"seat": seat, "nickname": nickname}
        return str(self.call("POST", f"/api/tables/{table_id}/sit", body)["token"])

    def move(self, table_id: str, token: str, move: dict[str, Any]) -> Any:
        """Play a move for a seat through the API, at the table's current ``seq``."""
        seq = self.table(table_id, token)["seq"]
        return self.call("POST", f"/api/tables/{table_id}/move", {"seq": seq, "move": move}, token)

    def table(self, table_id: str, token: str | None = None) -> dict[str, Any]:
        view: dict[str, Any] = self.call("GET", f"/api/tables/{table_id}", token=token)
        return view


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``tablero serve`` on a free port with a fresh SQLite database (bots move after 0.2 s)."""
    # The shipped dictionaries' graphs are built on first use and kept on disk: build them
    # here, so that no test's first table of a language waits for it (11 s for Romanian on a
    # fresh machine, more under load) and runs past its timeouts.
    for variant in ("fise", "cuvinte"):
        v = load_variant(variant)
        load_lexicon(v.lexicon, v.alphabet)
    # The operator's own dictionary: the project's sample of the FISE-2 distribution, installed
    # as fise2 in the server's data folder (tablero lexicon add), offered at the table form.
    from tablero.lexicon.installed import add_lexicon

    from ..lexicon.fise_sample import write_zip

    data = tmp_path_factory.mktemp("server-data")
    previous = os.environ.get("TABLERO_DATA")
    os.environ["TABLERO_DATA"] = str(data)
    try:
        add_lexicon("fise2", write_zip(tmp_path_factory.mktemp("dist") / "LISTAS.zip"))
    finally:
        if previous is None:
            del os.environ["TABLERO_DATA"]
        else:
            os.environ["TABLERO_DATA"] = previous
    port = _free_port()
    db = tmp_path_factory.mktemp("server") / "tablero.db"
    log = tmp_path_factory.mktemp("server-log") / "serve.log"
    cmd = [
        sys.executable,
        "-c",
        "from tablero.cli import main; main()",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        str(db),
        "--bot-delay",
        "0.2",
        "--log-level",
        "warning",
        # Every page of every test comes from 127.0.0.1: like a club behind one address.
        "--address-limit-scale",
        "20",
    ]
    with open(log, "wb") as out:
        env = os.environ | {"TABLERO_DATA": str(data)}
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/api/variants", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"tablero serve did not start:\n{log.read_text()}") from None
                time.sleep(0.2)
        yield Server(base, data)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# -- the browser ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """Open a page in a browser context of its own (its own localStorage: its own player).

    Page errors (uncaught exceptions) fail the test: the UI must not throw.
    """
    contexts: list[Any] = []
    errors: list[str] = []

    def make(
        locale: str = "en-US", width: int = 1280, height: int = 900, phone: bool = False
    ) -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height},
            locale=locale,
            base_url=server.base,
            has_touch=phone,
            is_mobile=phone,
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    path = Path(os.environ.get("TABLERO_ARTIFACTS", ROOT / "artifacts" / "screenshots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def shot(artifacts: Path) -> Callable[[Any, str], Path]:
    def take(page: Any, name: str) -> Path:
        path = artifacts / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
