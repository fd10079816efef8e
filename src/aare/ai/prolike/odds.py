"""Battle judgement as the description has it: a strength estimate first, then a short Monte Carlo.

Strength of a side: `2 x hit points + power x 6 / dice sides` summed over its units (power: attack when
attacking, defence when defending). The estimate `(A - D) / D^0.85 x 50 + 50` below 45 means "no chance" (no
simulation, 0 %); otherwise `aare.odds` Monte Carlo with `max(16, 100 - smaller army)` runs, its seeds drawn
from the bot's own seeded generator so a game replays the same.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from aare.board.notation import format_units
from aare.errors import AareError
from aare.odds import odds
from aare.rules.ruleset import Ruleset

Units = dict[str, int]
DICE_SIDES = 6
NO_CHANCE = 45.0
SURE = 55.0


def strength(units: Units, ruleset: Ruleset, attacking: bool) -> float:
    """`2 x hit points + power x 6 / dice sides`, summed over `units`."""
    total = 0.0
    for unit, n in units.items():
        kind = ruleset.units[unit]
        power = kind.attack if attacking else kind.defense
        total += n * (2 * kind.hits + power * 6 / DICE_SIDES)
    return total


def estimate(attackers: Units, defenders: Units, ruleset: Ruleset) -> float:
    """The strength difference estimate `(A - D) / D^0.85 x 50 + 50` (100 with nothing to fight)."""
    a = strength(attackers, ruleset, True)
    d = strength(defenders, ruleset, False)
    if d <= 0:
        return 100.0
    return float((a - d) / d**0.85 * 50 + 50)


def runs_for(attackers: Units, defenders: Units) -> int:
    """Monte Carlo runs: `max(16, 100 - the smaller army's unit count)`."""
    return max(16, 100 - min(sum(attackers.values()), sum(defenders.values())))


@dataclass(frozen=True)
class Verdict:
    """What the bot uses of a battle: the attacker's win chance (a land battle: with a land unit left to take the
    territory), the TUV swing (enemy value destroyed minus own value lost) and the runs simulated (0: estimated)."""

    win: float
    swing: float
    runs: int = 0


class Judge:
    """Judges battles by estimate and Monte Carlo, each simulation seeded from the bot's generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def attack(self, attackers: Units, defenders: Units, ruleset: Ruleset, battle: str = "land") -> Verdict:
        """The verdict on `attackers` against `defenders` (no defenders: a sure win; "no chance": 0)."""
        attackers = {u: n for u, n in attackers.items() if n > 0}
        defenders = {u: n for u, n in defenders.items() if n > 0}
        if not attackers:
            return Verdict(0.0, 0.0)
        if not defenders:
            land = battle != "land" or any(ruleset.units[u].domain == "land" for u in attackers)
            return Verdict(1.0 if land else 0.0, 0.0)
        if estimate(attackers, defenders, ruleset) < NO_CHANCE:  # "no chance": the attackers are lost
            return Verdict(0.0, -float(sum(ruleset.units[u].cost * n for u, n in attackers.items())))
        runs = runs_for(attackers, defenders)
        seed = self.rng.randrange(1 << 31)
        try:
            found = odds(format_units(attackers, ruleset.units), format_units(defenders, ruleset.units), ruleset,
                         battle=battle, method="mc", runs=runs, seed=seed)
        except (AareError, ValueError, KeyError):
            return Verdict(0.0, 0.0)
        win = found.capture if battle == "land" else found.attacker_win
        return Verdict(float(win), float(found.defender_ipc_lost - found.attacker_ipc_lost), runs)

    def hold(self, defenders: Units, threat: Units, ruleset: Ruleset) -> float:
        """The chance `defenders` hold a land territory against `threat`: sure when the threat's estimate says
        "no chance" (no simulation), else 1 - the threat's Monte Carlo win chance."""
        if not threat:
            return 1.0
        if not defenders:
            return 0.0
        return 1.0 - self.attack(threat, defenders, ruleset).win
