"""AARe 5.0 power-ranking formulas (ledger items AARE-RANK-*).

Ranks are positive integers and 1 is best. In every formula ``r`` is the player's own old rank and ``p`` the
opponent's old rank; the 'high' player is the one with the smaller rank number.

- high player wins: ``q = r - 0.5 * r^0.8 * (p - r)^-0.7``; the low loser keeps his rank.
- low player wins: ``q = r - (r - p)^0.2 * (0.6 * r^0.65 + 1.3 / p^0.9)`` for the winner; the high loser drops to
  ``q = r + (p - r - 3)^0.5`` when the winner was 4 or more places below him, else keeps his rank.
- every result is rounded half up and never better than 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from aare.errors import MalformedInput

BEST_RANK = 1
UPSET_GAP = 4
"""The high player loses rank only to an opponent this many places (or more) below him."""

_ROUND_DIGITS = 9
"""Raw ranks are rounded to this many decimals first, so float noise cannot flip an exact .5 (e.g. r=27, p=36)."""


def _check(rank: int, opponent: int) -> None:
    for value in (rank, opponent):
        if isinstance(value, bool) or not isinstance(value, int) or value < BEST_RANK:
            raise MalformedInput(f"a rank must be an integer >= 1, got {value!r}")
    if rank == opponent:
        raise MalformedInput(f"two players cannot share rank {rank}")


def round_rank(value: float) -> int:
    """Round half up (x.4.. -> x, x.5.. -> x+1), not banker's rounding. No clamping."""
    return math.floor(round(value, _ROUND_DIGITS) + 0.5)


def clamp_rank(value: float) -> int:
    """Round half up, then never better than rank 1."""
    return max(BEST_RANK, round_rank(value))


def is_high(rank: int, opponent: int) -> bool:
    """True when ``rank`` is the high (better, smaller-number) player of the pair."""
    _check(rank, opponent)
    return rank < opponent


def high_wins_raw(r: int, p: int) -> float:
    """Unrounded new rank of the high player ``r`` after beating the low player ``p``."""
    _check(r, p)
    if p < r:
        raise MalformedInput(f"rank {r} is not the high player against rank {p}")
    return float(r - 0.5 * r**0.8 * (p - r) ** -0.7)


def high_wins(r: int, p: int) -> int:
    """New rank of the high player ``r`` after beating the low player ``p``."""
    return clamp_rank(high_wins_raw(r, p))


def high_loses_raw(r: int, p: int) -> float:
    """Unrounded new rank of the high player ``r`` after losing to the low player ``p``.

    The seed prints ``(r-p-3)^0.5``, a negative square root for every upset; read as ``(p-r-3)^0.5``, which
    gives exactly the stated '4 or more ranks under' threshold.
    """
    _check(r, p)
    if p < r:
        raise MalformedInput(f"rank {r} is not the high player against rank {p}")
    if p - r < UPSET_GAP:
        return float(r)
    return r + math.sqrt(p - r - 3)


def high_loses(r: int, p: int) -> int:
    """New rank of the high player ``r`` after losing to the low player ``p``."""
    return clamp_rank(high_loses_raw(r, p))


def low_wins_raw(r: int, p: int) -> float:
    """Unrounded new rank of the low player ``r`` after beating the high player ``p`` (may fall below 1)."""
    _check(r, p)
    if r < p:
        raise MalformedInput(f"rank {r} is not the low player against rank {p}")
    return float(r - (r - p) ** 0.2 * (0.6 * r**0.65 + 1.3 / p**0.9))


def low_wins(r: int, p: int) -> int:
    """New rank of the low player ``r`` after beating the high player ``p``; never better than 1."""
    return clamp_rank(low_wins_raw(r, p))


@dataclass(frozen=True)
class RankChange:
    """Old and new formula ranks of both players of one game."""

    winner_before: int
    loser_before: int
    winner_after: int
    loser_after: int

    @property
    def upset(self) -> bool:
        """True when the low (worse-ranked) player won."""
        return self.winner_before > self.loser_before


def rank_change(winner: int, loser: int) -> RankChange:
    """Formula ranks after the player ranked ``winner`` beats the player ranked ``loser``."""
    _check(winner, loser)
    if winner < loser:
        return RankChange(winner, loser, high_wins(winner, loser), loser)
    return RankChange(winner, loser, low_wins(winner, loser), high_loses(loser, winner))


def gains_by_beating(r: int, p: int) -> bool:
    """True when the player ranked ``r`` improves his rank by beating the player ranked ``p``."""
    return rank_change(r, p).winner_after < r


def gain_threshold(r: int) -> int | None:
    """The worst-ranked lower opponent whose defeat still gains rank for ``r`` ('4 needs to beat 8 or better').

    ``None`` for rank 1, who cannot gain. The gain shrinks as ``p`` grows, so every ``p`` in ``r+1 .. threshold``
    gains and no ``p`` beyond it does.
    """
    _check(r, r + 1)
    if r == BEST_RANK:
        return None
    p = r + 1
    while gains_by_beating(r, p + 1):
        p += 1
    return p


def opponents_to_gain(r: int, n_ranked: int) -> list[int]:
    """Every opponent rank in ``1 .. n_ranked`` whose defeat improves rank ``r`` ('2 needs to beat 4 or 3')."""
    return [p for p in range(1, n_ranked + 1) if p != r and gains_by_beating(r, p)]


def paths_to_first(max_rank: int) -> list[tuple[int, int]]:
    """Every ``(r, p)`` (ranks up to ``max_rank``, ``r >= 2``) such that rank ``r`` beating rank ``p`` makes him 1."""
    return [
        (r, p)
        for r in range(2, max_rank + 1)
        for p in range(1, max_rank + 1)
        if p != r and rank_change(r, p).winner_after == BEST_RANK
    ]


def unranked_rank(n_ranked: int) -> int:
    """The rank an unranked player has in the formulas: one below the last ranked player."""
    if n_ranked < 0:
        raise MalformedInput(f"the number of ranked players cannot be negative, got {n_ranked}")
    return n_ranked + 1
