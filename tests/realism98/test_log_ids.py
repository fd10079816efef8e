"""The rules an Enhanced Realism '98 game's log names: on the Classic modules, the Classic (or Realism) ids of the
core's rules, never the core's LHTR ones, in a game played by bots."""

from __future__ import annotations

import json
import re

from aare.selfplay import play_game

FOREIGN = re.compile(r"\b(?:LHTR|AARE|AA50)-[A-Za-z0-9-]+")


def test_a_game_played_by_bots_names_no_lhtr_rule() -> None:
    result = play_game("realism-98", seed=0, rounds=3)
    assert not result.violations and not result.stuck
    text = json.dumps([e.to_json() for entry in result.log.entries for e in entry.events])
    assert set(FOREIGN.findall(text)) == set()
