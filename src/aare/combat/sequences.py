"""Battle sequences as data: named, ordered steps of one combat cycle.

Rule modules change a sequence through the ``combat_sequence`` hook with `insert_before`, `insert_after`,
`replace` and `remove` at named anchors; each returns a new sequence. The anchors of the LHTR sequences:

- land / amphibious: aa fire, bombardment, remove opening fire casualties, attacker fire, defender fire,
  remove casualties, press or retreat
- sea: attacker sub first strike, defender sub first strike, remove opening fire casualties, attacker fire,
  defender fire, remove casualties, attacker submerge, press or retreat, defender submerge
- bombing: aa fire, bombing damage, bombing result
"""

from __future__ import annotations

from dataclasses import dataclass

from aare.combat import steps as s
from aare.errors import UnknownName


@dataclass(frozen=True)
class Sequence:
    """The steps of one cycle of a battle of `kind`, in order."""

    kind: str
    steps: tuple[s.Step, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(step.name for step in self.steps)

    def index(self, anchor: str) -> int:
        try:
            return self.names.index(anchor)
        except ValueError:
            raise UnknownName(f"no step {anchor!r} in the {self.kind} sequence ({', '.join(self.names)})") from None

    def __getitem__(self, anchor: str) -> s.Step:
        return self.steps[self.index(anchor)]

    def __len__(self) -> int:
        return len(self.steps)

    def _with(self, steps: list[s.Step]) -> Sequence:
        return Sequence(self.kind, tuple(steps))

    def insert_before(self, anchor: str, step: s.Step) -> Sequence:
        i = self.index(anchor)
        return self._with([*self.steps[:i], step, *self.steps[i:]])

    def insert_after(self, anchor: str, step: s.Step) -> Sequence:
        i = self.index(anchor) + 1
        return self._with([*self.steps[:i], step, *self.steps[i:]])

    def replace(self, anchor: str, step: s.Step) -> Sequence:
        i = self.index(anchor)
        return self._with([*self.steps[:i], step, *self.steps[i + 1 :]])

    def remove(self, anchor: str) -> Sequence:
        i = self.index(anchor)
        return self._with([*self.steps[:i], *self.steps[i + 1 :]])

    @property
    def horizon(self) -> int:
        """First cycle number from which every later cycle runs the same steps."""
        return max((step.cycles for step in self.steps if step.cycles is not None), default=0) + 1

    def explain(self) -> list[str]:
        return [f"{i}. {step.describe()}" for i, step in enumerate(self.steps, 1)]


LAND = Sequence(
    "land",
    (
        s.AA_FIRE,
        s.BOMBARDMENT,
        s.REMOVE_OPENING_LAND,
        s.ATTACKER_FIRE,
        s.DEFENDER_FIRE,
        s.REMOVE_CASUALTIES,
        s.PRESS_OR_RETREAT,
    ),
)
AMPHIBIOUS = Sequence("amphibious", LAND.steps)
SEA = Sequence(
    "sea",
    (
        s.ATTACKER_SUBS,
        s.DEFENDER_SUBS,
        s.REMOVE_OPENING_SEA,
        s.ATTACKER_FIRE,
        s.DEFENDER_FIRE,
        s.REMOVE_CASUALTIES,
        s.ATTACKER_SUBMERGE,
        s.PRESS_OR_RETREAT,
        s.DEFENDER_SUBMERGE,
    ),
)
BOMBING = Sequence("bombing", (s.BOMBING_AA, s.BOMBING_DAMAGE, s.BOMBING_RESULT))

LHTR_SEQUENCES: dict[str, Sequence] = {"land": LAND, "amphibious": AMPHIBIOUS, "sea": SEA, "bombing": BOMBING}


def lhtr_sequence(kind: str) -> Sequence:
    try:
        return LHTR_SEQUENCES[kind]
    except KeyError:
        raise UnknownName(f"unknown battle kind {kind!r} (known: {', '.join(LHTR_SEQUENCES)})") from None
