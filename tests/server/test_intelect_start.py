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


def test_the_view_says_why_the_first_player_starts(server: Server) -> None:
    variant = load_variant("intelect")
    table, tokens = two_players(server, "intelect")
    view = server.view(table)
    start = view["start"]
    assert start["rule"] == "rack_nearest_z" and start["first"] == view["to_move"]
    shown = {seat: tiles for seat, tiles in start["shown"]}
    assert set(shown) == {0, 1} and start["lots"] == []
    # Each showed its best tiles, best first, as many as the tie took; the starter's last one
    # beat the other's (or the other's rack ran out).
    rack = server.view(table, tokens[start["first"]])["you"]["rack"]
    first, other = shown[start["first"]], shown[1 - start["first"]]
    assert first and all(t in rack for t in first)
    assert first[:-1] == other[: len(first) - 1]
    if len(other) == len(first):
        code = variant.alphabet.code
        if "?" not in (first[-1], other[-1]):  # a blank ranks by the rule file's blank_first
            assert code(first[-1]) > code(other[-1])
    # The same for spectators and players; and none where the tiles were drawn for.
    assert server.view(table, tokens[0])["start"] == start
    fise, _ = two_players(server, "fise")
    assert server.view(fise)["start"] is None
