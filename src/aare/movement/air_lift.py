"""Infantry carried by bombers (a technology's air transport): the pieces the rulesets' versions share, which
units of a space are taken and the candidate lifts a phase offers."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from aare.actions import AirTransport
from aare.movement.pathing import air_routes, remaining
from aare.movement.situation import Situation
from aare.state.unit_stacks import Stack

CANDIDATE_DROPS = 6


def take(stacks: list[Stack], n: int) -> list[tuple[Stack, int]]:
    """`n` units from `stacks`, in their order: (stack, how many of it)."""
    out = []
    for stack in stacks:
        k = min(n, stack.count)
        if k:
            out.append((stack, k))
            n -= k
    return out


def lift_candidates(
    view: Situation,
    space: str | None,
    carriers: Callable[[Situation, str], list[Stack]],
    riders: Callable[[Situation, str], list[Stack]],
    drop: Callable[[Situation, tuple[str, ...]], bool],
    limit: int = CANDIDATE_DROPS,
) -> Iterator[AirTransport]:
    """One infantry lifted from each space (`space` only, when given) where `riders` wait with `carriers`, along
    the best air path to up to `limit` spaces whose path `drop` accepts."""
    for start in sorted(view.state.units):
        if space not in (None, start) or not riders(view, start):
            continue
        steps = max((remaining(view, s) for s in carriers(view, start)), default=0)
        if not steps:
            continue
        routes = air_routes(view, start, steps, avoid_aa=False)
        for path in [p for p in routes.values() if drop(view, p)][:limit]:
            yield AirTransport(units="1 infantry", path=list(path))
