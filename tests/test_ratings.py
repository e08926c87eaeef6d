"""Ratings: the update of 2-, 3- and 4-seat results against the Weng–Lin formulas worked by hand.

``reference_update`` below is Algorithm 4 of Weng & Lin (2011), "A Bayesian Approximation
Method for Online Ranking" (the Plackett–Luce model), written from the paper's formulas with
plain ``math`` and the parameters written out, so that it checks both OpenSkill's arithmetic
and the parameters ``tablero.server.ratings`` passes it. Every seat is a team of one.
"""

from __future__ import annotations

import math

import pytest

from tablero.server.ratings import (
    BETA,
    DISPLAY_SCALE,
    KAPPA,
    MU,
    PROVISIONAL_GAMES,
    RATED_VARIANTS,
    SIGMA,
    TAU,
    Rating,
    account_player_key,
    bot_player_key,
    display,
    is_provisional,
    is_rated_variant,
    parse_player_key,
    update,
    validate_ranks,
)
from tablero.variant import builtin_variant_names, load_variant

# The model's parameters, written out (OpenSkill's defaults).
REF_MU = 25.0
REF_SIGMA = 25.0 / 3.0
REF_BETA = 25.0 / 6.0
REF_KAPPA = 0.0001
REF_TAU = 25.0 / 300.0

TOLERANCE = 1e-9


def reference_update(
    players: list[tuple[float, float]], ranks: list[int]
) -> list[tuple[float, float]]:
    """(mu, sigma) of each seat after one game, from the paper's formulas.

    0. Dynamics: every variance grows by tau² before the game, sigma_i² ← sigma_i² + tau².
    1. c = sqrt(Σ_i (sigma_i² + beta²)), over all seats.
    2. For each seat q: C_q = {s : r(s) ≥ r(q)}, the seats that did not finish ahead of q
       (q itself and its ties included); A_q = |{s : r(s) = r(q)}|, q and its ties.
       p̂(i, q) = exp(mu_i / c) / Σ_{s ∈ C_q} exp(mu_s / c): the chance that i, among C_q,
       comes first.
    3. For each seat i, summing over the seats q with r(q) ≤ r(i) (ahead of i, or tied, or i):
       Omega_i = (sigma_i² / c) · Σ_q (1 / A_q) · ([q = i] − p̂(i, q))
       Delta_i = gamma_i · (sigma_i² / c²) · Σ_q (1 / A_q) · p̂(i, q) · (1 − p̂(i, q)),
       with gamma_i = sigma_i / c.
    4. mu_i ← mu_i + Omega_i;  sigma_i ← sigma_i · sqrt(max(1 − Delta_i, kappa)).
    """
    n = len(players)
    mus = [mu for mu, _ in players]
    variances = [sigma * sigma + REF_TAU * REF_TAU for _, sigma in players]
    c = math.sqrt(sum(v + REF_BETA * REF_BETA for v in variances))
    strength = [math.exp(mu / c) for mu in mus]
    sum_q = [sum(strength[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    a_q = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    after = []
    for i in range(n):
        omega = 0.0
        delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = strength[i] / sum_q[q]
                omega += ((1.0 if q == i else 0.0) - p) / a_q[q]
                delta += p * (1.0 - p) / a_q[q]
        sigma_i = math.sqrt(variances[i])
        gamma = sigma_i / c
        omega *= variances[i] / c
        delta *= gamma * variances[i] / (c * c)
        after.append((mus[i] + omega, sigma_i * math.sqrt(max(1.0 - delta, REF_KAPPA))))
    return after


def check_against_reference(before: list[Rating], ranks: list[int]) -> list[Rating]:
    after = update(before, ranks)
    expected = reference_update([(r.mu, r.sigma) for r in before], ranks)
    for seat, (got, (mu, sigma)) in enumerate(zip(after, expected, strict=True)):
        assert got.mu == pytest.approx(mu, abs=TOLERANCE), f"seat {seat} mu"
        assert got.sigma == pytest.approx(sigma, abs=TOLERANCE), f"seat {seat} sigma"
    return after


# -- the parameters ----------------------------------------------------------------------------


def test_parameters_are_openskills_defaults_written_out() -> None:
    assert (MU, SIGMA, BETA, KAPPA, TAU) == (REF_MU, REF_SIGMA, REF_BETA, REF_KAPPA, REF_TAU)


# -- updates against the formulas ----------------------------------------------------------------


def test_two_seats_new_players_worked_by_hand() -> None:
    # Two new players (mu 25, sigma 25/3); seat 0 wins.
    #   sigma² = (25/3)² + (25/300)²        = 69.4513888889   (tau added first)
    #   sigma  =                               8.3337499896
    #   beta²  = (25/6)²                     = 17.3611111111
    #   c²     = 2 · (69.4513888889 + 17.3611111111) = 173.625,  c = 13.1766839531
    #   Both exp(25/c) are equal, so for q = the winner, C_q = both seats and p̂ = 1/2;
    #   for q = the loser, C_q = {loser} and p̂(loser, loser) = 1.
    #   Winner: Omega = sigma²/c · (1 − 1/2)              = 69.4513888889 / 13.1766839531 / 2
    #                                                     = 2.6353894931
    #   Loser:  Omega = sigma²/c · ((0 − 1/2) + (1 − 1))  = −2.6353894931
    #   Delta (both) = (sigma/c) · (sigma²/c²) · (1/2 · 1/2)    (the loser's q = loser adds 1·0)
    #                = 0.6324618561 · 0.4000079994 · 0.25 = 0.0632474504
    #   sigma' = 8.3337499896 · sqrt(1 − 0.0632474504) = 8.3337499896 · 0.9678597778
    #          = 8.0659014135
    #   Winner mu' = 25 + 2.6353894931 = 27.6353894931; loser mu' = 22.3646105069.
    #   Shown: 1500 ± 29.4808870258 · 2.6353894931 = 1500 ± 77.69 → 1578 and 1422.
    winner, loser = check_against_reference([Rating.new(), Rating.new()], [1, 2])
    assert winner.mu == pytest.approx(27.6353894931, abs=1e-10)
    assert loser.mu == pytest.approx(22.3646105069, abs=1e-10)
    assert winner.sigma == pytest.approx(8.0659014135, abs=1e-10)
    assert loser.sigma == pytest.approx(8.0659014135, abs=1e-10)
    assert (display(winner), display(loser)) == (1578, 1422)


def test_two_seats_win_between_unequal_players() -> None:
    # The underdog (seat 1) wins: it gains more than a favourite would.
    check_against_reference([Rating(31.0, 3.0, 40), Rating(22.5, 6.0, 8)], [2, 1])


def test_two_seats_tie() -> None:
    favourite, underdog = check_against_reference(
        [Rating(30.0, 3.0, 12), Rating(20.0, 5.0, 40)], [1, 1]
    )
    # A draw with a weaker player is a disappointment for the favourite, as in Elo.
    assert favourite.mu < 30.0 and underdog.mu > 20.0


def test_two_seats_tie_between_equals_moves_no_mean() -> None:
    a, b = check_against_reference([Rating.new(), Rating.new()], [1, 1])
    assert a.mu == pytest.approx(MU) and b.mu == pytest.approx(MU)
    assert a.sigma < SIGMA and b.sigma < SIGMA


def test_three_seats() -> None:
    # Seats finish third, first, second.
    after = check_against_reference(
        [Rating(26.0, 4.0, 20), Rating(24.0, 7.5, 3), Rating(28.5, 2.5, 90)], [3, 1, 2]
    )
    assert after[1].mu > 24.0 and after[0].mu < 26.0


def test_four_seats_with_a_tie_in_the_middle() -> None:
    # Seat 2 wins, seats 0 and 3 share second place, seat 1 is last.
    # OpenSkill 6.2 has a step meant to average tied seats' mean changes that, as written,
    # changes nothing (openskill.py#201); the paper's formulas are what it computes, and this
    # test fails if a release changes that (tied seats here have different sigmas).
    after = check_against_reference(
        [
            Rating(27.0, 5.0, 15),
            Rating(25.0, 8.0, 1),
            Rating(21.0, 3.5, 60),
            Rating(30.0, 2.0, 200),
        ],
        [2, 4, 1, 2],
    )
    assert after[2].mu > 21.0 and after[1].mu < 25.0


def test_four_new_players_in_order() -> None:
    check_against_reference([Rating.new() for _ in range(4)], [1, 2, 3, 4])


def test_dense_and_competition_ties_rate_alike() -> None:
    players = [Rating(27.0, 5.0, 15), Rating(25.0, 8.0, 1), Rating(21.0, 3.5, 60), Rating.new()]
    assert update(players, [1, 2, 2, 4]) == update(players, [1, 2, 2, 3])


def test_seat_order_does_not_matter() -> None:
    players = [Rating(27.0, 5.0, 15), Rating(25.0, 8.0, 1), Rating(21.0, 3.5, 60)]
    forward = update(players, [2, 3, 1])
    backward = update(players[::-1], [1, 3, 2])
    for a, b in zip(forward, backward[::-1], strict=True):
        assert a.mu == pytest.approx(b.mu, abs=1e-12)
        assert a.sigma == pytest.approx(b.sigma, abs=1e-12)


# -- games counting -----------------------------------------------------------------------------


def test_each_update_counts_one_game_per_seat() -> None:
    ratings = [Rating.new(), Rating(26.0, 4.0, 9), Rating(23.0, 6.0, 41)]
    for game in range(3):
        ratings = update(ratings, [1 + (game + seat) % 3 for seat in range(3)])
    assert [r.games for r in ratings] == [3, 12, 44]


# -- the displayed number -------------------------------------------------------------------------


def test_a_new_player_shows_1500_and_is_provisional() -> None:
    assert display(Rating.new()) == 1500
    assert is_provisional(Rating.new())


def test_provisional_until_the_tenth_game() -> None:
    assert PROVISIONAL_GAMES == 10
    assert is_provisional(Rating(MU, SIGMA, 9))
    assert not is_provisional(Rating(MU, SIGMA, 10))


def test_winner_goes_up_loser_down() -> None:
    after = update([Rating.new() for _ in range(4)], [3, 1, 4, 2])
    shown = [display(r) for r in after]
    assert shown[1] > shown[3] > 1500 > shown[0] > shown[2]


def test_display_changes_sum_to_about_zero_between_equal_sigmas() -> None:
    # With equal sigmas the mean changes sum to zero; rounding leaves at most 1 point a seat.
    before = [Rating(27.0, 4.0, 30), Rating(24.0, 4.0, 30), Rating(22.0, 4.0, 30)]
    after = update(before, [2, 1, 3])
    assert sum(r.mu for r in after) == pytest.approx(sum(r.mu for r in before), abs=1e-9)
    change = sum(display(a) - display(b) for a, b in zip(after, before, strict=True))
    assert abs(change) <= len(before)


def test_a_first_game_moves_the_number_moderately() -> None:
    # New against new: ±78. A newcomer who beats a settled, much stronger player: under 250.
    winner, loser = update([Rating.new(), Rating.new()], [1, 2])
    assert display(winner) - 1500 == 1500 - display(loser) == 78
    upset, _ = update([Rating.new(), Rating(40.0, 1.5, 500)], [1, 2])
    assert 100 < display(upset) - 1500 < 250


def test_400_points_are_odds_of_ten_to_one_between_settled_players() -> None:
    # Settled (sigma → 0): P(win) / P(loss) = exp((mu1 − mu2) / c), c = beta · √2.
    mu_gap = 400 / DISPLAY_SCALE
    assert math.exp(mu_gap / (REF_BETA * math.sqrt(2))) == pytest.approx(10.0)
    assert display(Rating(MU + mu_gap, 1.0, 100)) == 1900


# -- refusals --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranks", "message"),
    [
        ([1], "2 to 4 seats, not 1"),
        ([1, 2, 3, 4, 5], "2 to 4 seats, not 5"),
        ([0, 1], "ranks start at 1"),
        ([1, -1], "ranks start at 1"),
        ([1, 3], "skip places"),
        ([2, 2], "skip places"),
        ([2, 3, 4], "skip places"),
        ([1, 1, 2, 4], "skip places"),
        ([1, 1.0], "whole number"),
        ([True, 2], "whole number"),
    ],
)
def test_bad_ranks_are_refused(ranks: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        validate_ranks(ranks)
    with pytest.raises(ValueError, match=message):
        update([Rating.new() for _ in ranks], ranks)


@pytest.mark.parametrize("ranks", [[1, 2], [1, 1], [2, 1, 3], [1, 2, 2, 4], [1, 2, 2, 3], [1] * 4])
def test_good_ranks_pass(ranks: list[int]) -> None:
    validate_ranks(ranks)


def test_ratings_and_ranks_of_different_lengths() -> None:
    with pytest.raises(ValueError, match="3 ratings but 2 ranks"):
        update([Rating.new()] * 3, [1, 2])


@pytest.mark.parametrize(
    ("mu", "sigma", "games", "message"),
    [
        (math.nan, SIGMA, 0, "mu must be finite"),
        (math.inf, SIGMA, 0, "mu must be finite"),
        (MU, math.nan, 0, "sigma must be finite"),
        (MU, -math.inf, 0, "sigma must be finite"),
        (MU, 0.0, 0, "sigma must be positive"),
        (MU, -1.0, 0, "sigma must be positive"),
        (MU, SIGMA, -1, "games must be a whole number"),
        (MU, SIGMA, True, "games must be a whole number"),
        ("25", SIGMA, 0, "mu must be a number"),
    ],
)
def test_impossible_ratings_are_refused(mu: float, sigma: float, games: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rating(mu, sigma, games)


# -- whose rating, which games ------------------------------------------------------------------


def test_rated_variants_are_the_six_builtin_games() -> None:
    assert sorted(RATED_VARIANTS) == builtin_variant_names()
    for name in RATED_VARIANTS:
        variant = load_variant(name)
        assert variant.name == name and variant.source == f"builtin:{name}"
        assert is_rated_variant(name)


@pytest.mark.parametrize("ref", ["u-0123456789", "FISE", "", "fise.toml", "/tmp/fise.toml"])
def test_uploaded_rule_files_and_other_references_are_not_rated(ref: str) -> None:
    assert not is_rated_variant(ref)


def test_each_bot_level_is_its_own_player() -> None:
    keys = [bot_player_key(level) for level in range(1, 6)]
    assert keys == ["bot:beginner", "bot:easy", "bot:medium", "bot:club", "bot:expert"]
    assert [parse_player_key(k) for k in keys] == [("bot", level) for level in range(1, 6)]


def test_account_keys_round_trip() -> None:
    assert account_player_key(42) == "account:42"
    assert parse_player_key("account:42") == ("account", 42)


@pytest.mark.parametrize("level", [0, 6, -1, True])
def test_bad_bot_levels_are_refused(level: int) -> None:
    with pytest.raises(ValueError, match="a bot's level is 1 to 5"):
        bot_player_key(level)


@pytest.mark.parametrize("account_id", [0, -3, True])
def test_bad_account_ids_are_refused(account_id: int) -> None:
    with pytest.raises(ValueError, match="an account id"):
        account_player_key(account_id)


@pytest.mark.parametrize(
    "key", ["", "account:", "account:0", "account:007", "account:x", "bot:", "bot:greedy", "ana"]
)
def test_bad_player_keys_are_refused(key: str) -> None:
    with pytest.raises(ValueError, match="not a player key"):
        parse_player_key(key)
