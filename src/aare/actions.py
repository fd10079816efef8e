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
from aare.identity_cache import ByIdentity


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # the power acting: needed in a team turn, where several act at once; elsewhere it must be the power to act
    power: str = ""

    def to_json(self) -> dict[str, Any]:
        """The action's JSON form, a fresh copy each time (the caller may change it); worked out once per action
        object (actions are frozen; candidates kept from one state to the next are asked again and again)."""
        known = _JSON.get(self)
        if known is None:
            json = self.model_dump(mode="json", exclude_defaults=True) | {"type": self.type}  # type: ignore[attr-defined]
            known = _JSON.put(self, (json, tuple(k for k, v in json.items() if isinstance(v, list | dict))))
        out = known[0].copy()
        for key in known[1]:  # a path, a split: copied too
            out[key] = out[key].copy()
        return out


_JSON: ByIdentity[tuple[dict[str, Any], tuple[str, ...]]] = ByIdentity(100_000)
"""Actions' JSON forms and their keys holding a list or an object, by the action's identity."""


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
    # where the units are bought, for a ruleset that prices them by place (AARHE: infantry at a victory city, an
    # industrial complex where it will stand); empty: no place
    at: str = ""


class Repair(_Action):
    """Pay to remove `points` damage points from the power's industrial complex in `space` (purchase)."""

    type: Literal["repair"] = "repair"
    space: str
    points: int = Field(ge=1, le=999)


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


class AirTransport(_Action):
    """Carry infantry by heavy bomber in non-combat move (AARe): the bombers in `path[0]` take one infantry
    each from there, fly `path` and set it down in the last space, a friendly territory."""

    type: Literal["air_transport"] = "air_transport"
    units: str
    path: list[str] = Field(min_length=2)


class ChooseCasualties(_Action):
    """Answer a pending casualty decision with the units that take the hits."""

    type: Literal["choose_casualties"] = "choose_casualties"
    units: str


class Retreat(_Action):
    """Answer a press-or-retreat decision by retreating to `to`. Aircraft need no destination (they stay over
    the battle and land in non-combat move): `to` is empty when only aircraft retreat. Where the rules let
    retreating units go to several places, `split` maps each destination to the units going there
    (``{"<space>": "2 infantry", "<other space>": "1 armour"}``)."""

    type: Literal["retreat"] = "retreat"
    to: str = ""
    split: dict[str, str] = Field(default_factory=dict)

    def __hash__(self) -> int:  # frozen actions are hashable; the split is a mapping
        return hash((self.type, self.power, self.to, tuple(sorted(self.split.items()))))


class Press(_Action):
    """Answer a press-or-retreat decision by fighting another cycle."""

    type: Literal["press"] = "press"


class Submerge(_Action):
    """Submerge submarines when the battle offers it (`units` empty: none); where the rules make it a withdrawal
    into another sea zone, `to` names it."""

    type: Literal["submerge"] = "submerge"
    units: str = ""
    to: str = ""


class Place(_Action):
    """Mobilise purchased units in a space."""

    type: Literal["place"] = "place"
    units: str
    space: str


class DeclareAdvantage(_Action):
    """Declare one of the power's national advantages (by its id, as the ruleset names it)."""

    type: Literal["declare_advantage"] = "declare_advantage"
    advantage: str


class PlaceFree(_Action):
    """Place free units that a declared national advantage grants (`advantage`) in `space`."""

    type: Literal["place_free"] = "place_free"
    advantage: str
    units: str
    space: str


class Bid(_Action):
    """A player's straight bid before the game: the IPCs he would need to play the Axis (the lower bid plays
    the Axis). Made by the first power of the side the player is seated with."""

    type: Literal["bid"] = "bid"
    amount: int = Field(ge=0, le=999)


class BidCash(_Action):
    """Take `amount` IPCs of the side's bid as cash in this power's treasury instead of bid units (setup-bid)."""

    type: Literal["bid_cash"] = "bid_cash"
    amount: int = Field(ge=1, le=999)


class TreatyInfantry(_Action):
    """Choose where the free infantry of a broken or void non-aggression treaty go (the defender decides)."""

    type: Literal["treaty_infantry"] = "treaty_infantry"
    space: str


class DeclareDDay(_Action):
    """Declare the D-Day invasion at the start of the turn of the power the ruleset names (AARe D-Day)."""

    type: Literal["declare_d_day"] = "declare_d_day"


class SevereWinter(_Action):
    """Declare a Severe Winter (a national advantage: once a game, in its power's collect-income phase)."""

    type: Literal["severe_winter"] = "severe_winter"


class Lend(_Action):
    """An ally (`lender`) lends the power to move `amount` IPCs from its treasury (Lend-Lease, purchase)."""

    type: Literal["lend"] = "lend"
    lender: str
    amount: int = Field(ge=1, le=99)


class Convert(_Action):
    """Turn `owner`'s units in `space` into the power to move's own units (Lend-Lease, mobilize)."""

    type: Literal["convert"] = "convert"
    units: str
    owner: str
    space: str


class CoastalDefence(_Action):
    """Atlantic Wall (conduct-combat): the artillery in `territory` fires its coastal-defence shot at one enemy
    ship of type `target` (of `owner`, when several powers have that type there) in the adjacent `sea_zone`."""

    type: Literal["coastal_defence"] = "coastal_defence"
    territory: str
    sea_zone: str
    target: str
    owner: str = ""


class MoveFactory(_Action):
    """Move one industrial complex from `path[0]` to the adjacent `path[1]` (Mobile Industry, non-combat move)."""

    type: Literal["move_factory"] = "move_factory"
    path: list[str] = Field(min_length=2, max_length=2)


class Designate(_Action):
    """The power designates its units in `space` for a purpose (`advantage`): a one-way mission (combat move), subs
    in the sea zone they attack as Kaitens (``kaiten_torpedoes``), fighters as Kamikazes (``kamikaze_attacks``)
    before they fly; or its new infrastructure defences deployed (``deploy``, mobilize)."""

    type: Literal["designate"] = "designate"
    advantage: str
    units: str
    space: str


class Concede(_Action):
    """The side of the power named (`power`) gives up the game: the other side wins. Any power may concede at any
    time, where the ruleset has concession (the `concession` hook); it is never listed among the legal actions."""

    type: Literal["concede"] = "concede"


class DeclareTargets(_Action):
    """Answer a target declaration (AARe's Kaitens and Kamikazes, AARHE's aircraft under air supremacy): the enemy
    units in order, e.g. ``"carrier, battleship, battleship"`` (``"<power>:destroyer"`` names the owner)."""

    type: Literal["declare_targets"] = "declare_targets"
    targets: str


class Choose(_Action):
    """Answer a battle decision that offers named options (AARHE's break off: ``press-on``, ``break-off``,
    ``remain``, ``chase``), or make a choice before play (AARHE's national goals: ``sea-lion, barbarossa,
    defend-fatherland``)."""

    type: Literal["choose"] = "choose"
    option: str


class ChooseChart(_Action):
    """Answer a research breakthrough: the breakthrough chart (numbered from 1) the power rolls its new technology
    on (token research)."""

    type: Literal["choose_chart"] = "choose_chart"
    chart: int = Field(ge=1, le=9)


class LendLease(_Action):
    """Lend-lease IPCs carried by sea (AARHE): load `amount` IPCs onto one of the power's transports in `sea_zone`
    (no `territory`), or put the IPCs a transport carries in `sea_zone` ashore in `territory`."""

    type: Literal["lend_lease"] = "lend_lease"
    sea_zone: str
    amount: int = Field(default=0, ge=0, le=99)
    territory: str = ""


class AirMissions(_Action):
    """Declare the missions a power's aircraft fly during an enemy turn (AARHE's defensive air support and air
    interdiction): ``"2 fighter from Archangel -> Karelia S.S.R.; 1 bomber from United Kingdom => Western
    Europe"`` (``->`` to support a space, ``=>`` to strike one); empty or ``"none"``: no missions."""

    type: Literal["air_missions"] = "air_missions"
    missions: str = ""


class GiveTech(_Action):
    """Transfer a technology the power has to an ally (`to`) (AARHE's technology deployment, develop weapons)."""

    type: Literal["give_tech"] = "give_tech"
    tech: str
    to: str


class Atomic(_Action):
    """AARHE's atomic bomb: `buy` one (purchase); `load` a ready one onto a bomber of the power in `space`
    (non-combat move); `strike` the territory `target` with an armed bomber from `space` (conduct combat); the
    struck territory's holder divides its units into `groups` (``"2 infantry, 1 armour / 4 infantry"``); the
    attacker names the group (`group`, from 1) its bomb destroys in."""

    type: Literal["atomic"] = "atomic"
    step: Literal["buy", "load", "strike", "groups", "target"]
    space: str = ""
    target: str = ""
    group: int = Field(default=0, ge=0, le=99)
    groups: str = ""


Action = Annotated[
    EndPhase | Research | Purchase | Move | Load | Fight | Rocket | ChooseCasualties | Retreat | Press | Submerge
    | Place | DeclareAdvantage | PlaceFree | Bid | BidCash | TreatyInfantry | DeclareDDay | AirTransport
    | SevereWinter | Lend | Convert | MoveFactory | CoastalDefence | Designate | DeclareTargets | Choose | Concede
    | ChooseChart | Repair | LendLease | AirMissions | GiveTech | Atomic,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)
ACTION_TYPES: tuple[type[_Action], ...] = (
    EndPhase, Research, Purchase, Move, Load, Fight, Rocket, ChooseCasualties, Retreat, Press, Submerge, Place,
    DeclareAdvantage, PlaceFree, Bid, BidCash, TreatyInfantry, DeclareDDay, AirTransport, SevereWinter, Lend, Convert,
    MoveFactory, CoastalDefence,
    Designate, DeclareTargets, Choose, Concede, ChooseChart, Repair, LendLease, AirMissions, GiveTech, Atomic,
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
