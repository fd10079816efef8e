"""A battle's fixed inputs (`BattleSetup`) and the `Battle` value: setup plus state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aare.board.units import UnitCatalogue, UnitType
from aare.combat.battle_state import BattleState, Side, Stacks, UnitKey
from aare.combat.rules import CombatRules, TechBonus

if TYPE_CHECKING:
    from aare.combat.sequences import Sequence


@dataclass(frozen=True)
class BattleSetup:
    """What does not change during a battle: units catalogue, rules, sequence and per-side inputs.

    `techs` holds each side's technologies; `owner_techs` overrides them for one power's units (several
    allied powers defending together, LHTR-COMBAT-joint-defense). `retreat_to` lists the spaces attacking
    non-air units came from (LHTR-COMBAT-retreat-destination). `bombard` are the attacker's ships that may
    bombard (amphibious only). `territory_value` and `already_lost` bound bombing damage (LHTR-SBR-turn-cap);
    `treasury` bounds it too when known (LHTR-ECON-economic-damage-from-treasury). `defender_retreat_to` lists
    where defending units may retreat when the sequence offers them a retreat (none by default);
    `defender_stays` names unit types of the defender that cannot retreat and fight on when the rest go.
    `site_tags` describe the place of the battle for rules that read it (e.g. ``terrain:mountainous``).
    """

    kind: str
    catalogue: UnitCatalogue
    rules: CombatRules
    sequence: Sequence
    attacker_techs: frozenset[str] = frozenset()
    defender_techs: frozenset[str] = frozenset()
    owner_techs: Mapping[str, frozenset[str]] = field(default_factory=dict)
    retreat_to: tuple[str, ...] = ("origin",)
    bombard: Stacks = ()
    territory_value: int | None = None
    already_lost: int = 0
    treasury: int | None = None
    defender_retreat_to: tuple[str, ...] = ()
    defender_stays: frozenset[str] = frozenset()
    site_tags: frozenset[str] = frozenset()

    def unit(self, key: UnitKey | str) -> UnitType:
        return self.catalogue[key if isinstance(key, str) else key.type]

    def techs(self, side: Side, key: UnitKey | None = None) -> frozenset[str]:
        if key is not None and key.owner in self.owner_techs:
            return self.owner_techs[key.owner]
        return self.attacker_techs if side == "attacker" else self.defender_techs

    def active_bonuses(self) -> tuple[TechBonus, ...]:
        """The rules' tech bonuses whose tech some unit of the battle may have."""
        have = self.attacker_techs | self.defender_techs
        for techs in self.owner_techs.values():
            have |= techs
        return tuple(b for b in self.rules.tech_bonuses if b.tech in have)

    @property
    def conditional_bonus(self) -> bool:
        """Whether a tech bonus some unit of the battle may have has a condition (`TechBonus.when` may read
        anything of the battle). Worked out once per setup."""
        found: bool | None = self.__dict__.get("_conditional_bonus")
        if found is None:
            found = self.__dict__["_conditional_bonus"] = any(b.when is not None for b in self.active_bonuses())
        return found

    @property
    def value_horizon(self) -> int:
        """First cycle from which no cycle-limited bonus (`TechBonus.cycles`) applies any more, or 0."""
        return max((b.cycles + 1 for b in self.active_bonuses() if b.cycles is not None), default=0)

    @property
    def conditional_values(self) -> bool:
        """Whether a unit's value may change during the battle (a cycle-limited or conditional bonus). Worked out
        once per setup."""
        found: bool | None = self.__dict__.get("_conditional_values")
        if found is None:
            found = self.__dict__["_conditional_values"] = any(
                b.cycles is not None or b.when is not None for b in self.active_bonuses())
        return found

    def __hash__(self) -> int:
        return id(self)


@dataclass(frozen=True)
class Battle:
    """A battle in progress: the fixed setup and the current state."""

    setup: BattleSetup
    state: BattleState

    def with_state(self, state: BattleState) -> Battle:
        new = object.__new__(Battle)  # the dataclass's frozen __init__ without its checks (made very often)
        fields = new.__dict__
        fields["setup"] = self.setup
        fields["state"] = state
        return new

    @property
    def pending(self) -> object:
        return self.state.pending

    @property
    def ended(self) -> bool:
        return self.state.ended
