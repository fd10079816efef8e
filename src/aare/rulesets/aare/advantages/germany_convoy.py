"""Wolf Packs in convoy raids (seed NATIONAL ADVANTAGES / GERMANY 5; BASE GAME 5): a group of two or more German
submarines in one sea zone takes 2 IPCs more from a complex next to its zone, or 1 more from one two zones away.

Reading (AARE-NA-GER-wp-cr-bonus): the bonus is once per group and turn, on top of the subs' own raids
(`aare.rulesets.aare.convoy`), at the complex in the group's range where it takes most (an adjacent complex +2, not
+2 + 1); subs that submerged this turn do not count toward the group; the territory and income caps still apply.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.economy.damage import damage_cap_remaining, economic_damage_events
from aare.economy.summary import income
from aare.events import BankChanged, Event, ExtraSet, apply_events
from aare.movement import flags
from aare.phases.base import PhaseExtension, TurnContext
from aare.rulesets.aare import convoy
from aare.rulesets.aare.advantages.base import in_force
from aare.state.game_state import GameState

GERMANY = "Germany"
WP = "wolf_packs"
R_BONUS = "AARE-NA-GER-wp-cr-bonus"
GROUP = 2


def groups(state: GameState, ruleset: Any) -> dict[str, int]:
    """Sea zone -> German submarines there that raid this turn, where there are at least two."""
    units = ruleset.units
    out: dict[str, int] = {}
    for sea in ruleset.board.seas():
        zone = sea.name
        n = sum(s.count for s in state.stacks(zone) if s.owner == GERMANY and units[s.unit].has("submarine")
                and not flags.has(s, convoy.SUBMERGED_THIS_TURN))
        if n >= GROUP:
            out[zone] = n
    return out


def bonus_events(state: GameState, ruleset: Any, power: str, collected: int) -> list[Event]:
    """The Wolf Packs' extra convoy damage to `power` at its collect-income phase."""
    if power not in convoy.RAIDED or ruleset.board.side_of(power) == ruleset.board.side_of(GERMANY):
        return []
    targets = convoy.complexes(state, ruleset, power)
    found = groups(state, ruleset)
    if not targets or not found:
        return []
    raw = state.extra.get(convoy.KEY)
    this_turn = isinstance(raw, Mapping) and raw.get("power") == power and raw.get("round") == state.round
    taken = sum(r["damage"] for r in raw["raids"]) if this_turn else 0  # type: ignore[index]
    left = max(0, collected - taken)
    events: list[Event] = []
    raids: list[dict[str, Any]] = []
    for zone, count in sorted(found.items()):
        options = []
        for territory in targets:
            distance = convoy.zone_distances(ruleset, territory).get(zone)
            if distance is None:
                continue
            extra = convoy.ADJACENT if distance == 1 else convoy.NEAR
            options.append((min(extra, damage_cap_remaining(state, ruleset, territory)), extra, territory))
        if not options or not left:
            continue
        gain, extra, territory = max(options, key=lambda o: (o[0], o[1]))  # first in territory order on a tie
        if not gain:
            continue
        done = economic_damage_events(state, ruleset, territory, min(extra, left), R_BONUS)
        loss = -sum(e.delta for e in done if isinstance(e, BankChanged))
        left -= loss
        events += done
        state = apply_events(state, done)
        raids.append({"territory": territory, "raw": extra, "damage": loss,
                      "subs": [{"zone": zone, "owner": GERMANY, "count": count, "each": 0}], "wolf_packs": True})
    if not raids:
        return events
    fresh = {"round": state.round, "power": power, "raids": []}
    base: dict[str, Any] = dict(raw) if this_turn and isinstance(raw, Mapping) else fresh
    record = {**base, "raids": [*base["raids"], *raids]}
    return [*events, ExtraSet(convoy.KEY, record, R_BONUS)]


class WolfPackRaids(PhaseExtension):
    """Collect income: the group bonus follows the convoy raids."""

    name = "wolf-pack-raids"

    def on_enter(self, ctx: TurnContext) -> None:
        collected = income(ctx.state, ctx.ruleset, ctx.power)
        ctx.emit(*bonus_events(ctx.state, ctx.ruleset, ctx.power, collected))


WOLF_PACK_RAIDS = WolfPackRaids()


def phase_actions(found: list[Any], phase: str, state: GameState, ruleset: Any, **_: Any) -> list[Any]:
    """Wolf Packs adds the group bonus to collect-income when convoy raids are played."""
    convoys = any(m.id == "aare_convoy" for m in ruleset.modules)
    if phase == "collect-income" and convoys and in_force(state, GERMANY, WP):
        return [*found, WOLF_PACK_RAIDS]
    return found
