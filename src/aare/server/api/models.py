"""Request and response bodies of the HTTP API (they make the OpenAPI document)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from aare.ai import bot_names
from aare.rules.registry import default_ruleset


class ErrorOut(BaseModel):
    """Every error answer: a code, a message, and for some errors the rule ID, the current version or the
    seconds to wait."""

    error: str
    message: str
    rule_id: str | None = None
    version: int | None = None
    retry_after: int | None = None


class Credentials(BaseModel):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class UserOut(BaseModel):
    id: int
    username: str


class LoginOut(BaseModel):
    """The user, and the CSRF token to send as `X-CSRF-Token` (or form field `csrf_token`) with cookie-authenticated
    posts."""

    user: UserOut
    csrf_token: str | None = None


class TokenCreate(BaseModel):
    name: str = Field(min_length=1, max_length=64, description="what the token is for, e.g. the bot's name")


class TokenOut(BaseModel):
    """A new API token; `token` is shown only this once. Send it as `Authorization: Bearer <token>`."""

    id: int
    name: str
    token: str


class TokenInfo(BaseModel):
    id: int
    name: str
    created_at: float
    revoked_at: float | None = None


class SeatOut(BaseModel):
    seat: str
    user: str | None = None
    bot: str | None = None
    open: bool


SeatSpec = dict[str, str]
SEAT_SPEC_HELP = (f'seat name → "me", "open", "user:NAME" (a registered account) or a bot by name '
                  f'({", ".join(bot_names())}); unnamed seats are open; an unknown bot or account is refused (400)')


class GameCreate(BaseModel):
    ruleset: str = Field(default_factory=default_ruleset, description="ruleset id (see `aare rulesets`)")
    options: dict[str, Any] = Field(default_factory=dict, description="ruleset options")
    seating: Literal["nations", "sides", "powers"] = Field(
        "nations", description="one seat per nation (a power another's player plays sits with it), per side, or per "
        "power (every power its own seat)")
    seats: SeatSpec = Field(default_factory=dict, description=SEAT_SPEC_HELP)
    ranked: bool = Field(False, description="a ladder game: seated by side, one account a side, no bots; its end "
                         "moves the ladder")
    title_match: bool = Field(False, description="a ranked game for the champion's belt (both players named)")


class MatchCreate(BaseModel):
    """The community's match: two ranked games, sides swapped, an agreed bid."""

    ruleset: str = Field(default_factory=default_ruleset, description="ruleset id (see `aare rulesets`)")
    options: dict[str, Any] = Field(default_factory=dict, description="ruleset options")
    opponent: str = Field(min_length=1, max_length=64, description="the other player's username")
    bid: int = Field(0, ge=0, le=100, description="the agreed bid: IPCs for the Axis in both games")
    title_match: bool = False


class MatchOut(BaseModel):
    match_id: str | None
    games: list[str]


class LadderEntry(BaseModel):
    rank: int = Field(description="AARe power-ranking place (1 is best)")
    name: str
    champion: bool
    wins: int
    losses: int
    games: int
    rating: float = Field(description="openskill ordinal (mu - 3 sigma)")
    mu: float
    sigma: float


class LadderOut(BaseModel):
    players: list[LadderEntry]
    champion: str | None = None


class LadderGame(BaseModel):
    result: Literal["won", "lost"]
    opponent: str
    rank_before: int
    rank_after: int
    opponent_rank_before: int
    rating_before: float
    rating_after: float
    title_match: bool
    game_id: str | None = None
    source: str
    at: float


class LadderPlayerOut(BaseModel):
    player: LadderEntry
    history: list[LadderGame] = Field(description="newest first")


class GameImport(BaseModel):
    game: dict[str, Any] | None = Field(None, description="a game file (`aare new`, `aare play`) or a server export")
    post: str | None = Field(None, description="or the text of a post (`aare post`): a game played by post")
    seating: Literal["nations", "sides", "powers"] = "nations"
    seats: SeatSpec = Field(default_factory=dict, description=SEAT_SPEC_HELP)


class GameSummary(BaseModel):
    id: str
    ruleset: str
    options: dict[str, Any]
    seating: str
    version: int
    winner: str | None = None
    bot_error: str | None = None
    seats: list[SeatOut]
    ranked: bool = False
    title_match: bool = False
    match_id: str | None = None
    bid: int | None = None


class DiceInfo(BaseModel):
    scheme: str
    turn: int = Field(description="dice turn in force (counts the times play passed to another nation)")
    commitment: str | None = Field(description="sha256 of the secret seed of this turn's dice")


class GameView(GameSummary):
    """What the caller's seats may see of a game."""

    state_hash: str = Field(description="the hash of the state as the caller sees it: the game's state hash "
                            "unless something is hidden from the caller")
    to_act: str = Field(description="the power that must act now (a pending decision's power, else the nation)")
    acting_seat: str
    acting: list[str] = Field(default_factory=list, description="every power that may act now (several in a "
                              "team turn); an action names its power in its `power` field")
    acting_seats: list[str] = Field(default_factory=list)
    your_seats: list[str]
    your_turn: bool
    dice: DiceInfo
    state: dict[str, Any]
    summary: dict[str, Any]


class LegalOut(BaseModel):
    version: int
    to_act: str
    acting: list[str] = Field(default_factory=list)
    seat: str | None
    your_turn: bool
    actions: list[dict[str, Any]]


class ActionRequest(BaseModel):
    action: dict[str, Any] = Field(description='an action, e.g. {"type": "end_phase"} (see GET /schema/actions)')
    version: int = Field(description="the game version the action was chosen at")


class VersionRequest(BaseModel):
    version: int
    power: str | None = Field(default=None, description="in a team turn: the power whose last action to take back")


class DiceChange(BaseModel):
    turn: int
    commitment: str
    revealed: dict[str, Any] = Field(description="the turn that ended and its seed")


class ActionOut(BaseModel):
    """The answer to an accepted action: what changed (its log entry's events, the new version and state hash,
    who acts now); the live-update message of the entry (`EntryOut`) carries also the game, the actor and
    `kind`."""

    seq: int
    version: int
    state_hash: str | None = Field(description="the hash of the state after the entry as the reader sees it; "
                                   "null when something is hidden from the reader and the game moved on since")
    action: dict[str, Any] | None = Field(description="the action as stored (its power named as the board names it)")
    events: list[dict[str, Any]]
    round: int
    nation: str
    phase: str
    to_act: str
    winner: str | None = None
    dice: DiceChange | None = None


class EntryOut(ActionOut):
    """One new log entry as the live updates send it (the answer to the action that made it is its `ActionOut`
    part)."""

    kind: Literal["entry"]
    game_id: str
    actor: str


class UndoOut(BaseModel):
    kind: Literal["undo"]
    game_id: str
    version: int
    state_hash: str | None
    actor: str
    to_act: str


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for error answers."""
    return {code: {"model": ErrorOut} for code in codes}
