"""The HTTP API fuzzed from its own OpenAPI schema (``/api/openapi.json``) with schemathesis:
no request the schema describes, or nearly describes, makes the server fail (5xx).

Requests to a table go to real tables with a real seat token, so bodies reach the rooms and
the rules rather than stopping at ``404`` or ``401``: ``sit`` to a table with open seats,
everything else to a table in play. A bounded number of examples per operation keeps the run
well under a minute.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from .games import two_players, upload
from .harness import Server

EXAMPLES = 30
"""Examples per operation (there are 11)."""


@pytest.fixture(scope="module")
def module_db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """SQLite only: the schema and the handlers do not depend on the database."""
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'tablero.db'}"


@pytest.fixture(scope="module")
def variant(server: Server) -> str:
    """The small test game, uploaded."""
    return upload(server)


@pytest.fixture(scope="module")
def playing(server: Server, variant: str) -> tuple[str, str]:
    """A table in play and the token of its seat 0."""
    table, tokens = two_players(server, variant)
    return table, tokens[0]


@pytest.fixture(scope="module")
def api_schema(server: Server) -> Any:
    return schemathesis.openapi.from_url(f"{server.base}/api/openapi.json")


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_the_server_fail(
    case: Any, server: Server, variant: str, playing: tuple[str, str]
) -> None:
    table, token = playing
    if case.path_parameters and "table_id" in case.path_parameters:
        if case.path.endswith("/sit"):
            seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}]
            case.path_parameters["table_id"] = server.create(variant, seats)
        else:
            case.path_parameters["table_id"] = table
    case.call_and_validate(
        base_url=server.base,
        headers={"Authorization": f"Bearer {token}"},
        checks=[not_a_server_error],
    )
