"""BattleOdds: the calculator's result, and its JSON form."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from aare.board.notation import format_units
from aare.board.units import UnitCatalogue

Units = tuple[tuple[str, int], ...]


def freeze(counts: Mapping[str, int]) -> Units:
    return tuple(sorted((k, v) for k, v in counts.items() if v))


def ipc_value(units: Units | Mapping[str, int], catalogue: UnitCatalogue) -> int:
    items = units.items() if isinstance(units, Mapping) else units
    return sum(catalogue[t].cost * n for t, n in items)


@dataclass(frozen=True)
class BattleOdds:
    """Outcome probabilities of a battle.

    `defender_win` counts every outcome where the defender holds: the attacker destroyed or retreated
    (`retreat` is that part). `draw` counts both sides destroyed and the stalemates (`stalemate` is that
    part: neither side can hurt the other any more), so `attacker_win + defender_win + draw = 1`.
    `capture`: the attacker wins with a land unit left (land battles).

    A strategic bombing raid or rocket strike has no winner (its win, draw and stalemate figures are 0): its
    outcome is the IPC damage after the caps, `damage` (``(damage, probability)`` by damage) and its mean
    `expected_damage`; the attacker's losses are its survivors and IPC lost as in a battle. Other battles have
    `expected_damage` None and no `damage` rows, and their JSON leaves both keys out.
    """

    method: str
    attacker_win: float
    defender_win: float
    draw: float
    stalemate: float
    retreat: float
    capture: float
    expected_cycles: float
    attacker_ipc_lost: float
    defender_ipc_lost: float
    attacker_survivors: tuple[tuple[Units, float], ...]
    defender_survivors: tuple[tuple[Units, float], ...]
    catalogue: UnitCatalogue = field(repr=False, compare=False)
    ci95: Mapping[str, tuple[float, float]] | None = None
    runs: int | None = None
    seconds: float = 0.0
    explain: tuple[str, ...] = ()
    sea_win: float | None = None  # amphibious assault: P(the sea battle clears the zone)
    sea_battle: BattleOdds | None = None  # amphibious assault: the sea battle's own odds
    expected_damage: float | None = None
    damage: tuple[tuple[int, float], ...] = ()
    note: str = ""  # e.g. why Monte Carlo stood in for the exact method

    @property
    def total(self) -> float:
        return self.attacker_win + self.defender_win + self.draw

    def to_json(self) -> dict[str, Any]:
        def dist(rows: tuple[tuple[Units, float], ...]) -> list[dict[str, Any]]:
            return [{"units": format_units(dict(u), self.catalogue), "p": p} for u, p in rows]

        out: dict[str, Any] = {
            "method": self.method,
            "attacker_win": self.attacker_win,
            "defender_win": self.defender_win,
            "draw": self.draw,
            "stalemate": self.stalemate,
            "retreat": self.retreat,
            "capture": self.capture,
            "expected_cycles": self.expected_cycles,
            "attacker_ipc_lost": self.attacker_ipc_lost,
            "defender_ipc_lost": self.defender_ipc_lost,
            "attacker_survivors": dist(self.attacker_survivors),
            "defender_survivors": dist(self.defender_survivors),
        }
        if self.expected_damage is not None:
            out["expected_damage"] = self.expected_damage
            out["damage"] = [{"damage": d, "p": p} for d, p in self.damage]
        if self.ci95 is not None:
            out["ci95"] = {k: list(v) for k, v in self.ci95.items()}
            out["runs"] = self.runs
        if self.sea_win is not None:
            out["sea_win"] = self.sea_win
        if self.sea_battle is not None:
            out["sea_battle"] = self.sea_battle.to_json()
        if self.note:
            out["note"] = self.note
        out["seconds"] = self.seconds
        return out


_JOINT: ContextVar[bool] = ContextVar("aare_tally_joint", default=False)


@contextmanager
def joint_recording() -> Iterator[None]:
    """Tallies created inside also record each terminal's result and attacker survivors together (`Tally.joint`)."""
    token = _JOINT.set(True)
    try:
        yield
    finally:
        _JOINT.reset(token)


def _joint_default() -> dict[tuple[str, Units], float] | None:
    return {} if _JOINT.get() else None


@dataclass
class Tally:
    """Accumulates terminal outcomes (probability or counts) into a BattleOdds."""

    attacker_start: Units
    defender_start: Units
    catalogue: UnitCatalogue
    results: dict[str, float] = field(default_factory=dict)
    attacker: dict[Units, float] = field(default_factory=dict)
    defender: dict[Units, float] = field(default_factory=dict)
    capture: float = 0.0
    cycles: float = 0.0
    joint: dict[tuple[str, Units], float] | None = field(default_factory=_joint_default)  # (result, attacker): p
    damage: dict[int, float] = field(default_factory=dict)  # raids and rockets: IPC damage after the caps

    def add(
        self, result: str, attacker: Units, defender: Units, p: float, capture: bool = False, damage: int | None = None
    ) -> None:
        """One terminal outcome of weight `p`; `damage`: the IPC damage of a raid or rocket strike."""
        self.results[result] = self.results.get(result, 0.0) + p
        self.attacker[attacker] = self.attacker.get(attacker, 0.0) + p
        self.defender[defender] = self.defender.get(defender, 0.0) + p
        if capture:
            self.capture += p
        if self.joint is not None:
            self.joint[result, attacker] = self.joint.get((result, attacker), 0.0) + p
        if damage is not None:
            self.damage[damage] = self.damage.get(damage, 0.0) + p

    def damage_rows(self, scale: float = 1.0) -> tuple[tuple[int, float], ...]:
        """The damage distribution, by damage."""
        return tuple((d, p * scale) for d, p in sorted(self.damage.items()))

    def odds(self, method: str, scale: float = 1.0, **extra: Any) -> BattleOdds:
        r = {k: v * scale for k, v in self.results.items()}
        cat = self.catalogue
        a0, d0 = ipc_value(self.attacker_start, cat), ipc_value(self.defender_start, cat)
        a_lost = a0 - sum(ipc_value(u, cat) * p for u, p in self.attacker.items()) * scale
        d_lost = d0 - sum(ipc_value(u, cat) * p for u, p in self.defender.items()) * scale

        def rows(dist: dict[Units, float]) -> tuple[tuple[Units, float], ...]:
            return tuple(sorted(((u, p * scale) for u, p in dist.items()), key=lambda up: (-up[1], up[0])))

        return BattleOdds(
            method=method,
            attacker_win=r.get("attacker", 0.0),
            defender_win=r.get("defender", 0.0) + r.get("retreat", 0.0),
            draw=r.get("draw", 0.0) + r.get("stalemate", 0.0),
            stalemate=r.get("stalemate", 0.0),
            retreat=r.get("retreat", 0.0),
            capture=self.capture * scale,
            expected_cycles=self.cycles * scale,
            attacker_ipc_lost=a_lost,
            defender_ipc_lost=d_lost,
            attacker_survivors=rows(self.attacker),
            defender_survivors=rows(self.defender),
            catalogue=cat,
            **self._damage_fields(scale),
            **extra,
        )

    def _damage_fields(self, scale: float) -> dict[str, Any]:
        if not self.damage:
            return {}
        rows = self.damage_rows(scale)
        return {"damage": rows, "expected_damage": sum(d * p for d, p in rows)}
