"""Stack flags written by movement. Per-turn marks begin with ``turn:``; a transport's cargo is the
lasting flag ``cargo=<owner>:<unit>,...`` (one transport's load, sorted)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from aare.state.unit_stacks import Stack

TURN = "turn:"
COMBAT = "turn:combat"  # moved (or loaded/unloaded for an assault) in combat move
WITHDREW = "turn:withdrew"  # a ship that started in a hostile sea zone and left it in combat move
HOVER = "turn:hover"  # a fighter over a sea zone waiting for a carrier bought this turn
FROM = "turn:from"  # =<space>: where a land or sea unit entered its combat-move destination from
AMPHIBIOUS = "turn:amphibious"  # =<sea zone>: landed from that sea zone in an assault
LANDED = "turn:landed"  # =<sea zone>: unloaded in non-combat move
SBR = "turn:sbr"  # =<territory>: bomber on a strategic bombing raid
FLYOVER = "turn:flyover"  # =<territory>: flew over that territory's enemy AA gun in combat move
BOARDED = "turn:boarded"  # =<cargo>: on a transport, units that boarded it this turn
UNLOADED = "turn:unloaded"  # =<territory>: on a transport, where it unloaded this turn
DROPPED = "turn:dropped"  # =<cargo>: on a transport, the units it unloaded this turn
RETREATED = "turn:retreated"  # retreated into this sea zone from a battle: takes no part in a battle here
ELSEWHERE = "turn:elsewhere"  # on a mission away from its space this turn: in no battle or raid there
SUICIDE = "turn:suicide"  # a unit on a one-way mission (AARe Kaitens, Kamikazes): it is lost in its battle
CARGO = "cargo"
SUBMERGED = frozenset({"submerged", "turn:submerged"})

Cargo = tuple[tuple[str, str], ...]  # (owner, unit) per carried unit, sorted


def value(stack: Stack, key: str) -> str | None:
    """The value of the first ``key=value`` flag, or None."""
    prefix = key + "="
    for flag in stack.flags:
        if flag.startswith(prefix):
            return flag[len(prefix):]
    return None


def values(stack: Stack, key: str) -> tuple[str, ...]:
    prefix = key + "="
    return tuple(f[len(prefix):] for f in stack.flags if f.startswith(prefix))


def has(stack: Stack, flag: str) -> bool:
    return flag in stack.flags


def with_flags(stack: Stack, add: Iterable[str] = (), drop: Iterable[str] = ()) -> Stack:
    """`stack` with the flags `add` set and every flag named by (or keyed ``<name>=``) in `drop` removed."""
    gone = tuple(drop)
    kept = [f for f in stack.flags if not any(f == d or f.startswith(d + "=") for d in gone)]
    return replace(stack, flags=tuple(sorted(set(kept) | set(add))))


def submerged(stack: Stack) -> bool:
    return not SUBMERGED.isdisjoint(stack.flags)


def parse_cargo(text: str | None) -> Cargo:
    if not text:
        return ()
    return tuple(sorted(tuple(item.split(":", 1)) for item in text.split(",")))  # type: ignore[misc]


def format_cargo(cargo: Iterable[tuple[str, str]]) -> str:
    return ",".join(f"{owner}:{unit}" for owner, unit in sorted(cargo))


def cargo(stack: Stack) -> Cargo:
    """What one transport of `stack` carries."""
    return parse_cargo(value(stack, CARGO))


def with_cargo(stack: Stack, load: Iterable[tuple[str, str]]) -> Stack:
    entries = tuple(sorted(load))
    return with_flags(stack, [f"{CARGO}={format_cargo(entries)}"] if entries else [], [CARGO])


def cargo_list(stack: Stack, key: str) -> Cargo:
    return parse_cargo(value(stack, key))


def with_cargo_list(stack: Stack, key: str, load: Iterable[tuple[str, str]]) -> Stack:
    entries = tuple(sorted(load))
    return with_flags(stack, [f"{key}={format_cargo(entries)}"] if entries else [], [key])


def minus(a: Iterable[tuple[str, str]], b: Iterable[tuple[str, str]]) -> Cargo:
    """Multiset difference of two cargo lists."""
    return tuple(sorted((Counter(a) - Counter(b)).elements()))


def turn_flags(stack: Stack) -> tuple[str, ...]:
    return tuple(f for f in stack.flags if f.startswith(TURN))
