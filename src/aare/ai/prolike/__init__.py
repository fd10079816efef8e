"""The `prolike` bot: a baseline of the class of TripleA's Hard AI, written from a description of its pipeline
(docs/ai.md, "prolike"), reading units, costs and values from the ruleset.

It reads the game only through its seat's view and acts only through `legal_actions` / `apply`. Each phase is
planned when it starts (`bot.py`); its stages:

- **Battle odds** (`odds.py`): strength `2 x hp + power x 6 / dice sides`; the estimate `(A - D) / D^0.85 x 50 + 50`
  below 45 is "no chance" (no simulation); otherwise `aare.odds` Monte Carlo with `max(16, 100 - smaller army)`
  runs, seeded from the bot's seed. Only the win chance and the TUV swing are used. A territory "can be held" when
  the enemy's possible attack next turn (`reading.threat`) would win with less than 65 %, its own attack bar (a hold
  chance of at least `hold_at`, 35 %).
- **Purchase** (`purchase.py`): repairs first; defenders (best defence per cost) for complexes that cannot be held;
  an AA gun when three enemy aircraft threaten the capital; then land units drawn at random weighted by `(1 + hp) x
  (hp + attack + 0.5 x defence) / cost` times the distance factor (move, up to the land distance to the enemy);
  when no complex reaches enemy land by land, transports for the land units standing there and bought, an escort
  for every two, and land units to fill them (warships when no transport is offered); the rest on the cheapest
  land unit. No research, no complexes.
- **Combat move** (`combat_move.py`): each threatened capital, complex or victory city keeps the land units it needs
  to be held, the capital all of them when it lacks local land superiority within 3 spaces; each enemy territory in
  reach (overland, by air or by sea: the lifts of `aare.ai.amphibious`, none whose transports the enemy would sink
  where they unload) is judged with everything that can reach it and valued `(tuv_swing + territory_value) x (1 +
  4 capital) x (1 + 2 next to my capital)`, territory value `(1 + land + can_hold) x (1 + empty) x (1 + factory) x
  (1 - 0.5 needs_amphibious) x production`; targets below 65 % with all, without a land unit to take them, or
  neither holdable nor paying in unit value are dropped; the rest are taken in value order with the fewest units
  (land by attack per cost, the lifts, then aircraft) reaching 65 %, an empty one with its cheapest land unit.
- **Non-combat move** (`noncombat_move.py`): one land unit on every border territory; the capital, complexes and
  victory cities reinforced until they can be held (others are left if even all that can reach them would not hold
  them; the capital without local superiority takes all it can); the rest move to the reachable space of highest
  strategic value (`2^-distance` from enemy capitals and complexes, base `sqrt(production + sqrt(owner's income)) x
  32 x landmass / max landmass`; sea zones by the land they touch and the enemy ships near them); aircraft the
  rules would lose where they are (over enemy land, in a territory taken this turn: `aare.ai.landing`) land
  nearest the capital; land units with no land route to the enemy are ferried by sea towards it
  (`noncombat_move.ferry`).
- **Placement** (`placement.py`): complexes that cannot be held first, then the capital, then nearest the enemy
  (sea units beside the capital first, then where no enemy warship is within two sea steps).
- **Battles** (`battle.py`): the attacker retreats when `tuv_swing + win x 2 x production x (1 + factory) x (1 +
  capital) < 0`, never while the estimate is above 50 (unless only aircraft are left in a land battle), to the
  capital if offered, else the neighbour holding most; casualties the cheapest choice offered; submarines submerge
  when they may.
"""

from aare.ai.prolike.bot import ProlikeBot

__all__ = ["ProlikeBot"]
