"""Actions: what a player (or bot, or the server on a player's behalf) asks the engine to do.

Each action is a frozen pydantic model with a JSON form that is the one public contract: the CLI, game
files, the web table and bots all speak it. ``{"type": "move", "units": "2 infantry", "path": [...]}``.
`parse_action` turns JSON (text or an object) into an action, or raises MalformedInput;
`action_schema()` is the published JSON Schema.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from aare.errors import MalformedInput


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_defaults=True) | {"type": self.type}  # type: ignore[attr-defined]


class EndPhase(_Action):
    """Finish the current phase (and, after the last phase, the turn)."""

    type: Literal["end_phase"] = "end_phase"


class Research(_Action):
    """Buy research dice (develop-weapons) for the named technology `tech` and roll them."""

    type: Literal["research"] = "research"
    dice: int = Field(ge=1, le=99)
    tech: str = ""


class Purchase(_Action):
    """Buy units; they wait in the power's purchase pool until mobilisation."""

    type: Literal["purchase"] = "purchase"
    units: str


class Move(_Action):
    """Move units along a path of adjacent spaces; `path[0]` is where they are now. Transports are named
    with their cargo (``"1 transport, 1 infantry, 1 armour"``); land units moved from a sea zone to a
    territory are unloaded. `raid`: the bombers fly a strategic bombing raid on the last space."""

    type: Literal["move"] = "move"
    units: str
    path: list[str] = Field(min_length=2)
    raid: bool = False


class Load(_Action):
    """Load land units from a territory onto transports in an adjacent sea zone."""

    type: Literal["load"] = "load"
    units: str
    territory: str
    sea_zone: str


class Fight(_Action):
    """Choose the next battle to resolve (conduct-combat)."""

    type: Literal["fight"] = "fight"
    space: str


class Rocket(_Action):
    """Launch a rocket from the AA guns in `launcher` at the industrial complex in `target` (conduct-combat)."""

    type: Literal["rocket"] = "rocket"
    launcher: str
    target: str


class ChooseCasualties(_Action):
    """Answer a pending casualty decision with the units that take the hits."""

    type: Literal["choose_casualties"] = "choose_casualties"
    units: str


class Retreat(_Action):
    """Answer a press-or-retreat decision by retreating to `to`. Aircraft need no destination (they stay over
    the battle and land in non-combat move): `to` is empty when only aircraft retreat."""

    type: Literal["retreat"] = "retreat"
    to: str = ""


class Press(_Action):
    """Answer a press-or-retreat decision by fighting another cycle."""

    type: Literal["press"] = "press"


class Submerge(_Action):
    """Submerge submarines when the battle offers it (`units` empty: none)."""

    type: Literal["submerge"] = "submerge"
    units: str = ""


class Place(_Action):
    """Mobilise purchased units in a space."""

    type: Literal["place"] = "place"
    units: str
    space: str


Action = Annotated[
    EndPhase | Research | Purchase | Move | Load | Fight | Rocket | ChooseCasualties | Retreat | Press | Submerge
    | Place,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)
ACTION_TYPES: tuple[type[_Action], ...] = (
    EndPhase, Research, Purchase, Move, Load, Fight, Rocket, ChooseCasualties, Retreat, Press, Submerge, Place,
)


def parse_action(raw: Any) -> Any:
    """An action from JSON text or a decoded object; MalformedInput says what is wrong."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise MalformedInput(f"action is not valid JSON: {exc.msg} at column {exc.colno}") from None
    if isinstance(raw, _Action):
        return raw
    if not isinstance(raw, dict):
        raise MalformedInput("an action must be a JSON object with a 'type'")
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "action"
        raise MalformedInput(f"malformed action: {where}: {first['msg']}") from None


def action_schema() -> dict[str, Any]:
    """The JSON Schema of every action."""
    schema: dict[str, Any] = _ADAPTER.json_schema()
    schema["title"] = "aare action"
    return schema
