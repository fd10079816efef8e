"""The calculator's answers to battle decisions: order of loss per side and retreat policies."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aare.combat import casualties as cas
from aare.combat.decisions import (
    Answer,
    Casualties,
    ChooseCasualties,
    ChooseOption,
    ChooseSubmerge,
    ChooseTargets,
    Option,
    Press,
    PressOrRetreat,
    Retreat,
    Submerge,
    Targets,
)
from aare.combat.setup import Battle
from aare.combat.steps import START_OF_BATTLE, combat_units
from aare.combat.values import present


@dataclass(frozen=True)
class Policy:
    """How the calculator (or a bot) plays a battle.

    `attacker_order` / `defender_order`: unit types in the order they are lost (unlisted types follow,
    cheapest first); two-hit units always absorb a hit first. Retreat (attacker, at "press or retreat"):
    after `retreat_after` cycles; when down to `retreat_at_units` units or fewer; when only aircraft remain
    (`retreat_when_only_air`); when its chance to win by pressing on is under `retreat_below` (the exact
    calculator's solvers find that chance backwards; a step-engine policy cannot). Submarines submerge when
    the side's flag is set (never before the battle's first fire: such a sub is left out of the battle);
    `*_submerge_undetected` answers the submerge offered right after opening fire
    (AARe undetected subs). `targets`: the unit types a side's suicide attacks aim at, in order (AARe Kaitens
    and Kamikazes); by default the dearest enemy units, a two-hit unit named twice.
    """

    attacker_order: tuple[str, ...] = ()
    defender_order: tuple[str, ...] = ()
    retreat_after: int | None = None
    retreat_at_units: int | None = None
    retreat_when_only_air: bool = False
    retreat_below: float | None = None
    attacker_submerge: bool = False
    defender_submerge: bool = False
    attacker_submerge_undetected: bool = False
    defender_submerge_undetected: bool = False
    targets: tuple[str, ...] = ()

    @property
    def horizon(self) -> int:
        """Cycle number from which the policy acts the same in every cycle."""
        return (self.retreat_after or 0) + 1

    @property
    def retreats(self) -> bool:
        return (
            self.retreat_after is not None
            or self.retreat_at_units is not None
            or self.retreat_when_only_air
            or self.retreat_below is not None
        )

    def order(self, side: str) -> Sequence[str]:
        return self.attacker_order if side == "attacker" else self.defender_order

    def wants_retreat(self, battle: Battle) -> bool:
        if self.retreat_after is not None and battle.state.cycle >= self.retreat_after:
            return True
        if self.retreat_at_units is not None and combat_units(battle, "attacker") <= self.retreat_at_units:
            return True
        if self.retreat_when_only_air:
            return all(battle.setup.unit(k).domain == "air" for k, _ in present(battle, "attacker"))
        return False

    def __call__(self, battle: Battle, decision: object) -> Answer:
        if isinstance(decision, ChooseCasualties):
            cat = battle.setup.catalogue
            rank = cas.order_rank(cat, decision.side, self.order(decision.side), battle.setup.rules.last_casualty_tags)
            stacks = battle.state.units(decision.side)
            return Casualties(cas.choose_by_order(cat, stacks, decision.batches, rank))
        if isinstance(decision, PressOrRetreat):
            if decision.forced:
                return Retreat(decision.destinations[0] if decision.destinations else None)
            if decision.side == "defender" or not self.wants_retreat(battle):  # the defender never retreats
                return Press()
            if decision.can_retreat_all:
                return Retreat(decision.destinations[0] if decision.destinations else None)
            return Retreat(air_only=True)
        if isinstance(decision, ChooseSubmerge):
            if decision.stage == START_OF_BATTLE:
                wanted = False  # a sub that leaves before any fire is not in the battle calculated
            elif decision.stage == "after opening fire":
                wanted = (
                    self.attacker_submerge_undetected
                    if decision.side == "attacker"
                    else self.defender_submerge_undetected
                )
            else:
                wanted = self.attacker_submerge if decision.side == "attacker" else self.defender_submerge
            return Submerge(decision.available if wanted else 0)
        if isinstance(decision, ChooseTargets):
            return default_targets(battle, decision, self.targets)
        if isinstance(decision, ChooseOption):
            return Option(decision.options[0])
        raise TypeError(f"no policy for {decision!r}")


def default_targets(battle: Battle, decision: ChooseTargets, wanted: Sequence[str] = ()) -> Targets:
    """`wanted` (unit types in order) when it names exactly the targets asked for, else the decision's suggested
    answer, else the dearest eligible units first, each named as often as it may be."""
    mine = Targets(tuple(("", t) for t in wanted))
    if wanted and not isinstance(decision.resolve(mine), str):
        return mine
    if decision.suggested:
        return Targets(decision.suggested)
    cat = battle.setup.catalogue
    ranked = sorted(decision.eligible, key=lambda e: (-cat[e[1]].cost, cat.order(e[1]), e[0]))
    names = [(o, t) for o, t, hits in ranked for _ in range(hits)]
    return Targets(tuple(names[: decision.count]))


DEFAULT_POLICY = Policy()
