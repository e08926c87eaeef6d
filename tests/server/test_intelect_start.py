"""At a web table of Intelect the player who holds the letter nearest the end of the alphabet
starts (ties broken by the next letters down): the same rule as in the library, checked on the
racks each seat sees when the game starts."""

from __future__ import annotations

from tablero.variant import load_variant

from .games import two_players
from .harness import Server


def test_the_starter_holds_the_rack_nearest_z(server: Server) -> None:
    variant = load_variant("intelect")

    def key(rack: list[str]) -> tuple[int, ...]:
        return tuple(sorted((variant.alphabet.code(t) for t in rack), reverse=True))

    for _ in range(6):
        table, tokens = two_players(server, "intelect")
        racks = {seat: server.view(table, token)["you"]["rack"] for seat, token in tokens.items()}
        starter = server.view(table)["to_move"]
        assert len(racks[0]) == len(racks[1]) == 7
        assert key(racks[starter]) >= key(racks[1 - starter]), (starter, racks)
