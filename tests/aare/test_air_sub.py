"""Air/sub interaction (AARe 5.0 BASE GAME 9): aircraft alone may not attack a zone of only submarines;
a surface ship there or an own ship in the attack allows it; the limit is on declaring, not on fighting."""

from __future__ import annotations

import pytest

from aare.combat.engine import start_battle
from aare.errors import IllegalAction
from aare.odds import build_battle
from tests.aare.common import GER, UK, battle, one_cycle, present, rolls, units


def refused(attacker: dict, defender: dict, **options: object) -> str | None:  # type: ignore[type-arg]
    try:
        build_battle(attacker, defender, "aare-5.0", "sea", options or None)
    except IllegalAction as err:
        return err.rule_id
    return None


@pytest.mark.rule("AARE-AIRSUB-air-only-vs-subs-only")
def test_aircraft_alone_cannot_attack_only_submarines() -> None:
    assert refused(units(UK, fighter=2), units(GER, submarine=2)) == "AARE-AIRSUB-air-only-vs-subs-only"
    assert refused(units(UK, bomber=1), units(GER, submarine=1)) == "AARE-AIRSUB-air-only-vs-subs-only"
    start_battle("2 fighters", "2 submarines", kind="sea")  # LHTR allows it


@pytest.mark.rule("AARE-AIRSUB-air-only-vs-subs-and-surface")
def test_aircraft_alone_may_attack_subs_with_a_surface_ship() -> None:
    assert refused(units(UK, fighter=2), units(GER, submarine=2, destroyer=1)) is None
    assert refused(units(UK, fighter=2), units(GER, submarine=2, transport=1)) is None
    escorted = units(GER, submarine=2, transport=1)
    strict = refused(units(UK, fighter=2), escorted, air_attack_transports_are_surface=False)
    assert strict == "AARE-AIRSUB-air-only-vs-subs-only"


@pytest.mark.rule("AARE-AIRSUB-air-with-naval-vs-subs-only")
def test_aircraft_with_any_own_ship_may_attack_only_submarines() -> None:
    for ship in ("destroyer", "transport", "submarine", "carrier", "battleship"):
        assert refused({**units(UK, fighter=2), **units(UK, **{ship: 1})}, units(GER, submarine=2)) is None


@pytest.mark.rule("AARE-AIRSUB-combat-move-only")
def test_aircraft_keep_hitting_subs_once_the_surface_ships_are_sunk() -> None:
    b = battle({**units(UK, fighter=1, destroyer=1)}, units(GER, destroyer=1, submarine=2))
    # detection 1; German subs 6, 6; UK fighter 1 and destroyer 6 sink the German destroyer; German DD 6
    b, _ = one_cycle(b, [1, 6, 6, 1, 6, 6], {"destroyer": 1})
    assert present(b, "defender") == {"submarine": 2}
    b, events = one_cycle(b, [6, 6, 1, 6])  # subs 6, 6; the fighter hits a sub
    assert next((r.unit, r.hits) for r in rolls(events, "attacker fire")) == ("fighter", 1)
    assert present(b, "defender") == {"submarine": 1}
    # defending aircraft are not limited either: a carrier's fighter hits an attacking sub
    b, events = one_cycle(battle(units(GER, submarine=1), units(UK, carrier=1, fighter=1)), [6, 1, 6])
    assert b.state.result == "defender"
