"""AARe super subs and Combined Arms (seed WEAPONS DEVELOPMENT 3 and 5): subs attack at 3, destroyers bombard,
battleships fire as AA guns (at attackers and at aircraft flying over), one battleship a zone."""

from __future__ import annotations

import pytest

from aare.combat.battle_state import UnitKey
from aare.combat.decisions import Submerge
from aare.movement import flags
from aare.movement.battles import pending_battles
from aare.state.unit_stacks import Stack
from tests.aare.common import GER, JPN, UK, US, battle, one_cycle, present, rolls, units
from tests.aare.tech_helpers import act, dice_of, end, game, move, with_dice

SS = frozenset({"super_submarines"})
CA = frozenset({"combined_bombardment"})


@pytest.mark.rule("AARE-TECH-supersub-attack-3")
def test_super_subs_attack_at_three_and_defend_at_two() -> None:
    b = battle(units(GER, submarine=1), units(UK, transport=1), attacker_techs=SS)
    b, events = one_cycle(b, [3])  # the sub hits on 3: the transport is gone, nothing fires back
    assert [(r.unit, r.hit_on, r.hits) for r in rolls(events)] == [("submarine", 3, 1)] and b.state.result == "attacker"
    b = battle(units(UK, battleship=1), units(GER, submarine=1), defender_techs=SS)
    _, events = one_cycle(b, [3, 6], Submerge(0))  # the defending sub misses on 3; the battleship 6
    assert [(r.unit, r.hit_on, r.hits) for r in rolls(events, "defender sub first strike")] == [("submarine", 2, 0)]


@pytest.mark.rule("AARE-TECH-ca-dd-bombard")
def test_combined_arms_destroyers_bombard_at_three() -> None:
    b = battle("2 infantry", "2 infantry", "amphibious", bombard="1 destroyer", attacker_techs=CA)
    b, events = one_cycle(b, [3, 6, 6, 6])  # the destroyer hits on 3; infantry 6, 6; one defender left: 6
    assert [(r.unit, r.hit_on, r.hits) for r in rolls(events, "bombardment")] == [("destroyer", 3, 1)]
    b = battle("2 infantry", "2 infantry", "amphibious", bombard="1 destroyer")
    _, events = one_cycle(b, [6, 6, 6, 6])
    assert rolls(events, "bombardment") == []  # no Combined Arms: no bombardment


@pytest.mark.rule("AARE-TECH-ca-dd-bombard")
def test_on_the_board_a_destroyer_supports_a_landing_without_a_sea_battle() -> None:
    loaded = flags.with_cargo(Stack(US, "transport", 1), [(US, "infantry"), (US, "infantry")])
    placed = {"SZ 7": "United States: 1 destroyer", "Western Europe": "Germany: 1 infantry"}
    g = game(US, "combat-move", placed, techs={US: ["combined_bombardment"]}, owners={"Western Europe": GER},
             stacks=[("SZ 7", loaded)])
    act(g, {"type": "move", "units": "2 infantry", "path": ["SZ 7", "Western Europe"]})
    [site] = [s for s in pending_battles(g.state, g.ruleset) if s.space == "Western Europe"]
    assert [s.unit for _, s in site.bombard] == ["destroyer"]
    end(g)
    g = with_dice(g, [3, 6, 6, 6])  # the destroyer bombards at 3: the defender is gone before it fires
    events = act(g, {"type": "fight", "space": "Western Europe"})
    assert dice_of(events)[0] == (3,) and g.state.owners["Western Europe"] == US


@pytest.mark.rule("AARE-TECH-ca-bb-aa-attackers")
def test_a_combined_arms_battleship_fires_at_each_attacking_plane_by_type() -> None:
    b = battle(units(JPN, fighter=3, bomber=1), units(US, battleship=1), defender_techs=CA)
    b, events = one_cycle(b, [1, 6, 6, 6, 6, 6, 6, 6])  # AA: fighters 1, 6, 6 (one down); bomber 6
    aa = rolls(events, "battleship aa")
    assert [(r.unit, r.count, r.hit_on, r.hits) for r in aa] == [("fighter", 3, 1, 1), ("bomber", 1, 1, 0)]
    assert [(r.unit, r.count) for r in rolls(events, "attacker fire")] == [("fighter", 2), ("bomber", 1)]
    kami = battle({UnitKey("fighter", JPN, flags=("kamikaze",)): 1, UnitKey("fighter", JPN): 1},
                  units(US, battleship=1), defender_techs=CA)
    _, events = one_cycle(kami, [6, 1, 6, 6])  # Kamikazes and fighters are rolled apart
    assert [(r.unit, r.count, r.hits) for r in rolls(events, "battleship aa")] == [
        ("fighter", 1, 0), ("fighter (kamikaze)", 1, 1)]
    no_ca = battle(units(JPN, fighter=1), units(US, battleship=1))
    _, events = one_cycle(no_ca, [6, 6])
    assert rolls(events, "battleship aa") == []


@pytest.mark.rule("AARE-TECH-ca-bb-one-per-sz")
def test_only_one_battleship_a_zone_fires() -> None:
    b = battle(units(GER, fighter=2), units(UK, battleship=3), defender_techs=CA)
    _, events = one_cycle(b, [6, 6, 6, 6, 6, 6, 6])  # 2 AA dice; 2 fighters; 3 battleships
    assert [r.count for r in rolls(events, "battleship aa")] == [2]


@pytest.mark.rule("AARE-TECH-ca-bb-normal-roll-kept")
def test_the_battleship_still_defends_at_four() -> None:
    b = battle(units(GER, fighter=1, destroyer=1), units(US, battleship=1), defender_techs=CA)
    b, events = one_cycle(b, [6, 6, 6, 4])  # AA 6; fighter 6, destroyer 6; battleship 4: a hit
    assert [(r.unit, r.hit_on, r.hits) for r in rolls(events, "defender fire")] == [("battleship", 4, 1)]
    assert sum(present(b, "attacker").values()) == 1


@pytest.mark.rule("AARE-TECH-ca-bb-aa-flyover")
def test_a_battleship_fires_at_a_bomber_flying_over_its_zone() -> None:
    placed = {"Germany": "Germany: 1 bomber", "SZ 7": "United Kingdom: 1 battleship",
              "United Kingdom": "United Kingdom: 1 factory"}
    owners = {"Germany": GER, "Western Europe": GER, "United Kingdom": UK}

    def fly(options: dict[str, object] | None = None) -> tuple[list[tuple[int, ...]], object]:
        g = game(GER, "combat-move", placed, owners=owners, techs={UK: ["combined_bombardment"]}, options=options)
        move(g, "1 bomber", "Germany", "Western Europe", "SZ 7", "United Kingdom", raid=True)
        g = with_dice(g, [1])
        events = act(g, {"type": "end_phase"})  # entering conduct combat: the battleship fires
        return dice_of(events), g.state.stacks("United Kingdom")

    rolled, uk = fly()
    assert rolled == [(1,)] and not [s for s in uk if s.owner == GER]  # hit on 1: the bomber is gone
    rolled, uk = fly({"battleship_aa_flyover": False})
    assert rolled == [] and [s.unit for s in uk if s.owner == GER] == ["bomber"]
