"""Classic neutrals: the fourteen owner-less territories (CL-NEUTRAL-list). Land units may enter one in combat
move for a fee paid when the move is made (CL-NEUTRAL-entry-fee) and take it; aircraft neither fly over one nor
take one, and land units stop on entering one (CL-NEUTRAL-no-overflight, CL-NEUTRAL-air-cannot-take)."""

from __future__ import annotations

from typing import Any

from aare.events import BankChanged, Event, UnitsChanged, UnitsUnloaded
from aare.movement.move_checks import Leg, Violation
from aare.movement.situation import Situation

FEE_RULE = "CL-NEUTRAL-entry-fee"


def is_neutral(view: Situation, space: str) -> bool:
    """A land territory no power holds: a neutral not taken yet (once taken it is its taker's territory)."""
    return view.is_land(space) and view.state.owners.get(space) is None


def entry_fee(view: Situation) -> int:
    """IPCs a power pays to enter a neutral (the option `neutral_entry_fee`)."""
    return int(view.ruleset.options.get("neutral_entry_fee", 3))


def neutral_passage(leg: Leg) -> Violation | None:
    """Aircraft neither fly over nor enter a neutral; land units stop on entering one (no blitz through it)."""
    view = leg.view
    if leg.domain == "air":
        if is_neutral(view, leg.end) and leg.end not in view.enemy_fighting:  # nothing there to attack
            return Violation(f"{leg.end} is neutral: only land units can take it", "CL-NEUTRAL-air-cannot-take")
        over = next((s for s in leg.path[1:-1] if is_neutral(view, s)), None)
        if over is not None and not view.ruleset.options.get("neutral_overflight", False):
            return Violation(f"aircraft may not fly over neutral {over}", "CL-NEUTRAL-no-overflight")
    if leg.domain == "land":
        through = next((s for s in leg.path[1:-1] if is_neutral(view, s)), None)
        if through is not None:
            return Violation(f"land units entering neutral {through} stop there", "CL-NEUTRAL-no-overflight")
    return None


def _lands_in(events: list[Event], view: Situation, territory: str) -> bool:
    """Whether `events` put land units into `territory`."""
    for event in events:
        if isinstance(event, UnitsUnloaded) and event.territory == territory:
            return True
        if isinstance(event, UnitsChanged) and event.to_space == territory and event.space != territory \
                and view.unit(event.before).domain == "land":
            return True
    return False


def _entered(view: Situation, territory: str) -> bool:
    """The mover's land units are already in `territory` (it entered, and paid, this turn)."""
    return any(view.unit(s).domain == "land" for s in view.own(territory))


def unaffordable(refusals: dict[str, tuple[str, str]], view: Situation, **_: Any) -> dict[str, tuple[str, str]]:
    """The neutrals the mover cannot pay to enter (none once it entered one: one fee per territory)."""
    fee, bank = entry_fee(view), view.state.banks.get(view.power, 0)
    if bank >= fee:
        return refusals
    found = dict(refusals)
    for territory in sorted(view.graph.land):
        if is_neutral(view, territory) and not _entered(view, territory):
            found[territory] = (f"entering neutral {territory} costs {fee} IPCs and {view.power} has {bank}", FEE_RULE)
    return found


def fee_events(events: list[Event], view: Situation, combat: bool, path: tuple[str, ...], **_: Any) -> list[Event]:
    """Land units entering a neutral in combat move: the power pays the fee at once, once per territory (a power
    that cannot pay may not enter, see `unaffordable`)."""
    end, fee = path[-1], entry_fee(view)
    if not combat or not fee or not is_neutral(view, end) or _entered(view, end) or not _lands_in(events, view, end):
        return events
    return [BankChanged(view.power, -fee, f"rule: entering neutral {end}", FEE_RULE), *events]


def closed_to_aircraft(closed: frozenset[str], view: Situation, **_: Any) -> frozenset[str]:
    """Aircraft neither fly over nor enter a neutral (unless the option `neutral_overflight` is set, and then they
    still may not end there, `neutral_passage`): air routes and landing ranges go around them."""
    if view.ruleset.options.get("neutral_overflight", False):
        return closed
    return closed | {t for t in view.graph.land if is_neutral(view, t) and t not in view.enemy_fighting}
