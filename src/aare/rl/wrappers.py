"""A wrapper taking an action as an index, as the engine's JSON, or in text notation (`aare.action_text`):
a JSON or text action that is one of the candidates is played by its index, any other the engine accepts (a
move of 2 of 3 infantry, a purchase of 5 at once) is played as it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo.utils.wrappers import BaseWrapper

from aare.action_text import parse_action_text
from aare.actions import parse_action
from aare.rl.env import AareEnv


class JsonActions(BaseWrapper):  # type: ignore[misc]
    """`step(action)` with `action` an index, a JSON action (a mapping) or its text (`"move 2 infantry A -> B"`)."""

    def step(self, action: Any) -> None:
        if action is None or not isinstance(action, Mapping | str):
            super().step(action)
            return
        env: AareEnv = self.unwrapped
        if isinstance(action, str):
            action = parse_action_text(action, env.encoder.ruleset)
        index = candidate_index(env, action)
        if index is not None:
            super().step(index)
        else:
            env.play(action)


def candidate_index(env: AareEnv, action: Mapping[str, Any]) -> int | None:
    """The index of the candidate `action` is, or None when it is none of the first `max_actions`."""
    wanted = parse_action(dict(action)).to_json()
    wanted.pop("power", None)
    for index, candidate in enumerate(env.candidates[: env.max_actions]):
        if {k: v for k, v in candidate.items() if k != "power"} == wanted:
            return index
    return None
