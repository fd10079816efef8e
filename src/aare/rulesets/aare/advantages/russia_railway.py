"""Russian Railway (seed NATIONAL ADVANTAGES / RUSSIA 2, AARE-NA-RUS-rail-*): the core's railway
(`aare.movement.railway`).

In non-combat move Russian infantry, artillery and AA guns that began the turn in a railway territory may
move up to 2 territories, only within the railway territories (Buryatia, Yakut, Novosibirsk, Russia,
Caucasus, West Russia, Karelia) and only into or through Allied-owned ones. A rail move is one move, made
by a unit that has not moved this turn (docs/rulings.md); a move of 1 is an ordinary move.
"""

from __future__ import annotations

from aare.movement.railway import Railway
from aare.rulesets.aare.advantages.russia_common import RUSSIA, holds

ID = "russian_railway"
R_MOVE = "AARE-NA-RUS-rail-move-2"
R_NETWORK = "AARE-NA-RUS-rail-network-only"
R_ALLIED = "AARE-NA-RUS-rail-allied-owned"
R_START = "AARE-NA-RUS-rail-start-on-network"
RULE_IDS = (R_MOVE, R_NETWORK, R_ALLIED, R_START)
RAILWAY = Railway(
    power=RUSSIA,
    network=frozenset({"Buryatia S.S.R.", "Yakut S.S.R.", "Novosibirsk", "Russia", "Caucasus", "West Russia",
                       "Karelia S.S.R."}),
    units=frozenset({"infantry", "artillery", "aa_gun"}),
    move_rule=R_MOVE,
    network_rule=R_NETWORK,
    friendly_rule=R_ALLIED,
    start_rule=R_START,
    active=lambda state: holds(state, ID),
)
NETWORK = RAILWAY.network
movement_left = RAILWAY.movement_left
move_checks = RAILWAY.move_checks
