"""The action fuzzer: short episodes of random, mutated and malformed actions against the one door, checked
after every action. Shared by the tests (`tests/fuzz/`, a bounded number of episodes with fixed Hypothesis
examples) and by `bench/fuzz.py` (the long run, one process per core).

An episode is a game and a plan (`Plan`: ruleset, seed, length, how often a legal action is played); a
`random.Random(seed)` drives it, so a plan is replayed exactly and a shorter plan is a prefix of a longer one.
Each step submits one action: a legal one (from `Game.legal_actions`, or a cheaper sample of it), or a legal
one mutated (a unit count, a space, the path's steps, a dropped or unknown field, a wrong type, another
power), or malformed JSON, or a stale action of an earlier state. After every action:

- the engine raises nothing but the `AareError` family (the server answers nothing of 5xx);
- a refused action changes nothing: the state and the log length (the server: version and state hash);
- an accepted action passes `aare.invariants.check_step`;

and at the end of the episode the log replays through its JSON form to the same state hash (the server: its
export verifies with `verify_export`, and replays to the hash the server reports).
"""

from __future__ import annotations

import copy
import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aare.actions import ACTION_TYPES, EndPhase
from aare.ai.bot import sample_legal
from aare.engine import Game
from aare.errors import AareError
from aare.game_log import GameLog
from aare.game_setup import new_game
from aare.invariants import check_step
from aare.rules.ruleset import Ruleset

ENGINE_RULESETS = ("lhtr-1.3", "aare-5.0", "team-test")
MAX_ACTIONS = 200
SPACE_FIELDS = ("space", "territory", "sea_zone", "to", "launcher", "target")
ODD_VALUES: tuple[Any, ...] = (0, -1, 1, 7, 10**12, 2.5, None, True, False, "", "x", "🎲", [], {}, ["a", 1],
                               {"a": 1}, "9" * 40, "SZ 9999", "Atlantis", "end_phase", " ", "\x00")
ACTION_NAMES = tuple(t.model_fields["type"].default for t in ACTION_TYPES)


@dataclass(frozen=True)
class Plan:
    """One episode: the ruleset, the seed of the game and of the fuzzer, how many actions, and how likely a
    step plays a legal action (the rest are mutated, malformed or stale)."""

    rules: str
    seed: int
    actions: int = MAX_ACTIONS
    legal_share: float = 0.3


@dataclass
class Tally:
    """What the fuzzer did and found. `problems` are failures (each names the plan and the step)."""

    actions: int = 0
    accepted: int = 0
    refused: int = 0
    episodes: int = 0
    server_errors: int = 0  # 5xx answers (server), exceptions outside the AareError family (engine)
    changed_on_refusal: int = 0
    replay_mismatches: int = 0
    invariant_violations: int = 0
    dead_ends: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    statuses: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        for name in ("actions", "accepted", "refused", "episodes", "server_errors", "changed_on_refusal",
                     "replay_mismatches", "invariant_violations", "dead_ends", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for mine, theirs in ((self.kinds, other.kinds), (self.statuses, other.statuses)):
            for key, n in theirs.items():
                mine[key] = mine.get(key, 0) + n
        self.problems += other.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "actions": self.actions, "accepted": self.accepted, "refused": self.refused, "episodes": self.episodes,
            "crashes": self.server_errors, "state_changed_on_refusal": self.changed_on_refusal,
            "replay_mismatches": self.replay_mismatches, "invariant_violations": self.invariant_violations,
            "dead_ends": self.dead_ends, "kinds": dict(sorted(self.kinds.items())),
            "statuses": dict(sorted(self.statuses.items())), "problems": self.problems[:20],
        }


def install_team_rules() -> None:
    """The test-only ruleset with team turns (tests/teamturns/family.py)."""
    from tests.teamturns.family import install

    install()


# -- building actions ----------------------------------------------------------------------------------------


class Fuzzer:
    """Chooses what to submit next in a game: a legal action, or one made from a legal one."""

    def __init__(self, rng: random.Random, ruleset: Ruleset) -> None:
        self.rng = rng
        self.spaces = list(ruleset.board.spaces)
        self.powers = [p.name for p in ruleset.board.powers]
        self.power_names = [*self.powers, *(a for p in ruleset.board.powers for a in p.aliases),
                            *(p.lower() for p in self.powers)]
        self.space_names = [*self.spaces, *(a for s in ruleset.board.spaces.values() for a in s.aliases),
                            *(s.upper() for s in self.spaces[:10])]
        self.units = [u.id for u in ruleset.units]
        self.seen: list[dict[str, Any]] = []  # legal actions of this and earlier states
        self.legal: list[dict[str, Any]] = []  # legal actions listed at `legal_version`
        self.legal_at: tuple[Any, str | None] | None = None  # the state object and power they were listed for

    # legal actions --------------------------------------------------------------------------------------

    def list_legal(self, game: Game, power: str | None) -> list[dict[str, Any]]:
        """Every legal action now (listed once per state and power)."""
        at = self.legal_at
        if at is None or at[0] is not game.log.state or at[1] != power:
            self.legal = [a.to_json() for a in game.legal_actions(power=power)]
            self.legal_at = (game.log.state, power)
            self._remember(self.legal)
        return self.legal

    def pick_legal(self, game: Game, power: str | None) -> dict[str, Any] | None:
        """A legal action: often `end_phase` (so play moves on), else a sampled or listed one."""
        rng = self.rng
        player = game.acting_as(power) if power is not None else game
        end = EndPhase(power=power or "")
        if rng.random() < 0.35 and player.is_legal(end):
            return end.to_json()
        if rng.random() < 0.5 or player.state.pending is not None:
            legal = self.list_legal(game, power)
            return rng.choice(legal) if legal else None
        found = sample_legal(player, rng)
        if found is None:
            legal = self.list_legal(game, power)
            return rng.choice(legal) if legal else None
        action: dict[str, Any] = found.to_json()
        if power is not None:
            action["power"] = power
        self._remember([action])
        return action

    def _remember(self, actions: list[dict[str, Any]]) -> None:
        self.seen.extend(actions[:8])
        if len(self.seen) > 400:
            del self.seen[:200]

    # bad actions ----------------------------------------------------------------------------------------

    def base(self) -> dict[str, Any]:
        pool = self.legal if self.legal and self.rng.random() < 0.7 else self.seen
        if not pool:
            return {"type": "end_phase"}
        return copy.deepcopy(self.rng.choice(pool))

    def bad(self) -> tuple[str, Any]:
        """A mutated, malformed or stale action and the name of what was done to it."""
        rng = self.rng
        kind = rng.choice(MUTATIONS)
        action = self.base()
        body = getattr(self, f"_m_{kind}")(action)
        if rng.random() < 0.15:  # a second change on top
            second = rng.choice(("count", "space", "path", "drop", "unknown", "wrong_type", "power"))
            if isinstance(body, dict):
                body = getattr(self, f"_m_{second}")(body)
                kind = f"{kind}+{second}"
        return kind, body

    def _m_stale(self, action: dict[str, Any]) -> Any:
        return copy.deepcopy(self.rng.choice(self.seen)) if self.seen else action

    def _m_count(self, action: dict[str, Any]) -> Any:
        rng = self.rng
        units = action.get("units")
        if isinstance(units, str) and re.search(r"[0-9]+", units):
            numbers = list(re.finditer(r"[0-9]+", units))
            m = rng.choice(numbers)
            n = int(m.group()) if len(m.group()) < 10 else 1
            new = rng.choice((0, n + 1, n + 2, n * 3, 10**9, -1, 99))
            action["units"] = units[: m.start()] + str(new) + units[m.end() :]
        elif "dice" in action or "amount" in action:
            key = "dice" if "dice" in action else "amount"
            old = action[key] if isinstance(action[key], int) else 1
            action[key] = rng.choice((0, -3, 1, 2, 100, 10**6, old + 1))
        else:
            action["units"] = f"{rng.choice((1, 2, 5, 40))} {rng.choice(self.units)}"
        return action

    def _m_notation(self, action: dict[str, Any]) -> Any:
        """Unit lists written oddly: no count, odd digits and separators, a unit twice, signs and fractions."""
        rng = self.rng
        unit = rng.choice(self.units)
        units = action.get("units") if isinstance(action.get("units"), str) else f"1 {unit}"
        action["units"] = rng.choice((
            unit, f"01 {unit}", f"1  {unit}", f"{units},", f", {units}", f"{units}, {units}", f"{units} and 1 {unit}",
            f"-1 {unit}", f"1.5 {unit}", f"1e3 {unit}", f"\u0661 {unit}", f"{units};{units}", units.upper(),
            f"1 {unit}, 0 {unit}", f"2 {unit}s", "", ",", f"{10**30} {unit}", f"{units}, 1 {unit}: 1",
            f"{'9' * 5000} {unit}", f"\u00b2 {unit}",
        ))
        return action

    def _m_unit(self, action: dict[str, Any]) -> Any:
        units = action.get("units")
        other = self.rng.choice([*self.units, "tank", "zeppelin", "infantries"])
        if isinstance(units, str) and units:
            words = units.split(" ")
            i = self.rng.randrange(len(words))
            words[i] = other
            action["units"] = " ".join(words)
        else:
            action["units"] = f"1 {other}"
        return action

    def _m_space(self, action: dict[str, Any]) -> Any:
        rng = self.rng
        other = rng.choice(self.space_names) if rng.random() < 0.8 else rng.choice(("Atlantis", "SZ 99", "", "SZ 0"))
        keys = [k for k in SPACE_FIELDS if k in action]
        if isinstance(action.get("path"), list) and action["path"] and (not keys or rng.random() < 0.6):
            path = action["path"]
            path[rng.randrange(len(path))] = other
        elif keys:
            action[rng.choice(keys)] = other
        else:
            action[rng.choice(SPACE_FIELDS)] = other
        return action

    def _m_path(self, action: dict[str, Any]) -> Any:
        rng = self.rng
        path = action.get("path")
        if not isinstance(path, list) or not path:
            action["path"] = rng.sample(self.spaces, rng.choice((1, 2, 3)))
            return action
        how = rng.randrange(6)
        if how == 0 and len(path) > 1:
            i, j = rng.sample(range(len(path)), 2)
            path[i], path[j] = path[j], path[i]
        elif how == 1:
            path.reverse()
        elif how == 2 and len(path) > 1:
            del path[rng.randrange(len(path))]
        elif how == 3:
            i = rng.randrange(len(path))
            path.insert(i, path[i])
        elif how == 4:
            path.append(rng.choice(self.spaces))
        else:
            action["path"] = path[:1]
        return action

    def _m_drop(self, action: dict[str, Any]) -> Any:
        if action:
            del action[self.rng.choice(sorted(action))]
        return action

    def _m_unknown(self, action: dict[str, Any]) -> Any:
        key = self.rng.choice(("foo", "unit", "Units", "paths", "version", "__class__", "count", "player"))
        action[key] = self.rng.choice(ODD_VALUES)
        return action

    def _m_wrong_type(self, action: dict[str, Any]) -> Any:
        key = self.rng.choice(sorted(action)) if action else "type"
        action[key] = self.rng.choice(ODD_VALUES)
        return action

    def _m_power(self, action: dict[str, Any]) -> Any:
        rng = self.rng
        current = action.get("power")
        others = [p for p in self.power_names if p != current]
        action["power"] = rng.choice(others) if rng.random() < 0.85 else rng.choice(("Atlantis", "", "axis", "  "))
        return action

    def _m_type(self, action: dict[str, Any]) -> Any:
        action["type"] = self.rng.choice([*ACTION_NAMES, "fly", "END_PHASE", "", "undo"])
        return action

    def _m_json(self, action: dict[str, Any]) -> Any:
        rng = self.rng
        text = json.dumps(action)
        how = rng.randrange(5)
        if how == 0:
            return text[: rng.randrange(len(text))]
        if how == 1:
            i = rng.randrange(len(text))
            return text[:i] + rng.choice("{}[]\",:x\\") + text[i:]
        if how == 2:
            return rng.choice(("", "null", "[]", "42", '"end_phase"', "{", "{}", "[{}]", "NaN", "{'type': 1}"))
        if how == 3:
            return text.replace('"', "'")
        return text + rng.choice(("}", ",", " x", "\x00"))

    def _m_not_object(self, action: dict[str, Any]) -> Any:
        return self.rng.choice((None, 1, 2.5, [], [action], "end_phase", True))


MUTATIONS = ("stale", "count", "notation", "unit", "space", "path", "drop", "unknown", "wrong_type", "power", "type",
             "json", "not_object")


# -- the engine ----------------------------------------------------------------------------------------------


def replay_problem(log: GameLog) -> str | None:
    """Why the log does not replay through its JSON form to its state hash (None if it does)."""
    try:
        reread = GameLog.from_json(json.loads(json.dumps(log.to_json())))
    except AareError as exc:
        return f"the log does not reread: {exc}"
    if reread.state.hash() != log.state.hash():
        return "the log's JSON form replays to another state hash"
    return None


def engine_episode(plan: Plan) -> Tally:
    """Play one episode against `Game.apply`."""
    if plan.rules == "team-test":
        install_team_rules()
    options = {"weapons_development": False} if plan.rules == "team-test" else None
    start = time.perf_counter()
    tally = Tally(episodes=1)
    game = Game(new_game(plan.rules, options, plan.seed))
    ruleset = game.ruleset
    rng = random.Random(plan.seed * 7919 + 17)
    fuzz = Fuzzer(rng, ruleset)
    where = repr(plan)

    def fail(counter: str, message: str) -> None:
        setattr(tally, counter, getattr(tally, counter) + 1)
        tally.problems.append(f"{where} action {tally.actions}: {message}")

    while tally.actions < plan.actions and game.state.winner is None:
        acting = game.to_act()
        if not acting:
            break
        power = rng.choice(acting) if game.state.members else None
        legal_step = rng.random() < plan.legal_share
        if legal_step:
            action: Any = _pick_any_legal(fuzz, game, power, acting)
            if action is None:
                tally.dead_ends += 1
                break
            kind, as_power = "legal", None
        else:
            kind, action = fuzz.bad()
            as_power = None
            if rng.random() < 0.1:  # the door's own `power` argument
                as_power = rng.choice([*fuzz.powers, "Atlantis", ""])
                kind += "+power_arg"
        before, entries = game.state, len(game.log.entries)
        tally.actions += 1
        tally.kinds[kind] = tally.kinds.get(kind, 0) + 1
        try:
            events = game.apply(action, power=as_power)
        except AareError as exc:
            tally.refused += 1
            if legal_step:
                fail("invariant_violations", f"a legal action was refused: {action!r}: {exc}")
            if game.state != before or len(game.log.entries) != entries:
                fail("changed_on_refusal", f"{kind} {action!r} was refused ({exc}) but changed the game")
            continue
        except Exception as exc:  # the fuzzer's finding: anything but the typed errors
            fail("server_errors", f"{kind} {action!r} raised {type(exc).__name__}: {exc}")
            if game.state != before or len(game.log.entries) != entries:
                fail("changed_on_refusal", f"{kind} {action!r} raised but changed the game")
            continue
        tally.accepted += 1
        found = check_step(before, events, game.state, ruleset)
        if found:
            fail("invariant_violations", f"{kind} {action!r}: {found[:3]}")
        if rng.random() < 0.03:
            _try_undo(game, tally, fail)
    problem = replay_problem(game.log)
    if problem:
        fail("replay_mismatches", problem)
    tally.seconds = time.perf_counter() - start
    return tally


def _try_undo(game: Game, tally: Tally, fail: Callable[[str, str], None]) -> None:
    """Undo (for the last entry's power): either it takes back one entry or it changes nothing."""
    before, entries = game.state, len(game.log.entries)
    power = (game.log.entries[-1].action or {}).get("power") if game.log.entries else None
    try:
        game.undo(power)
    except AareError:
        if game.state != before or len(game.log.entries) != entries:
            fail("changed_on_refusal", "a refused undo changed the game")
        return
    if len(game.log.entries) >= entries:
        fail("invariant_violations", "an undo took back nothing")


def run_engine(plans: list[Plan]) -> Tally:
    total = Tally()
    for plan in plans:
        total.add(engine_episode(plan))
    return total


# -- the server ----------------------------------------------------------------------------------------------

SERVER_RULESETS = ENGINE_RULESETS
SERVER_MUTATIONS = ("stale_version", "stranger", "body")


def register(base_url: str, name: str) -> Any:
    """An HTTP client logged in as a new user, sending its CSRF token with every request."""
    import httpx

    http = httpx.Client(base_url=base_url, timeout=60)
    answer = http.post("/auth/register", json={"username": name, "password": "correct horse battery"})
    if answer.status_code != 201:
        raise RuntimeError(f"cannot register {name}: {answer.status_code} {answer.text}")
    http.headers["X-CSRF-Token"] = answer.json()["csrf_token"]
    return http


def _mirror(export: dict[str, Any]) -> GameLog:
    return GameLog.from_json(export)


def server_episode(plan: Plan, owner: Any, stranger: Any) -> Tally:
    """Play one episode against `POST /games/{id}/actions`: `owner` holds every seat of a new game, `stranger`
    holds none. A local copy of the log (`mirror`) follows every accepted entry and must reach the hash the
    server reports; the game's version and state hash are read after every refusal."""
    from aare.events import event_from_json
    from aare.server.seats import seat_names
    from aare.server.verify import verify_export

    if plan.rules == "team-test":
        install_team_rules()
    options = {"weapons_development": False} if plan.rules == "team-test" else {}
    start = time.perf_counter()
    tally = Tally(episodes=1)
    seats = dict.fromkeys(seat_names(plan.rules, options, "nations"), "me")
    answer = owner.post("/games", json={"ruleset": plan.rules, "options": options, "seats": seats})
    if answer.status_code != 201:
        raise RuntimeError(f"cannot create a game: {answer.status_code} {answer.text}")
    game_id = answer.json()["id"]
    mirror = _mirror(owner.get(f"/games/{game_id}/export").json())
    game = Game(mirror)
    ruleset = game.ruleset
    rng = random.Random(plan.seed * 7919 + 23)
    fuzz = Fuzzer(rng, ruleset)
    where = f"{plan} game {game_id}"

    def fail(counter: str, message: str) -> None:
        setattr(tally, counter, getattr(tally, counter) + 1)
        tally.problems.append(f"{where} action {tally.actions}: {message}")

    def unchanged(what: str) -> None:
        view = owner.get(f"/games/{game_id}")
        if view.status_code >= 500:
            fail("server_errors", f"GET /games/{{id}} after {what}: {view.status_code} {view.text[:300]}")
            return
        seen = view.json()
        if seen["version"] != game.state.version or seen["state_hash"] != game.state.hash():
            fail("changed_on_refusal", f"{what} was refused but the game is at version {seen['version']}, "
                 f"hash {seen['state_hash'][:12]} (expected {game.state.version}, {game.state.hash()[:12]})")

    while tally.actions < plan.actions and game.state.winner is None:
        acting = game.to_act()
        if not acting:
            break
        power = rng.choice(acting) if game.state.members else None
        version = game.state.version
        http, legal_step = owner, rng.random() < plan.legal_share
        body: Any
        if legal_step:
            action = _pick_any_legal(fuzz, game, power, acting)
            if action is None:
                tally.dead_ends += 1
                break
            kind = "legal"
            body = {"action": action, "version": version}
        elif rng.random() < 0.3:
            kind = rng.choice(SERVER_MUTATIONS)
            action = fuzz.base()
            if kind == "stale_version":
                body = {"action": action, "version": rng.choice((version - 1, version + 1, version - 5, -1, 10**9))}
            elif kind == "stranger":
                http, body = stranger, {"action": action, "version": version}
            else:
                body = rng.choice((
                    {"action": action}, {"version": version}, {"action": action, "version": str(version)},
                    {"action": [action], "version": version}, {"action": action, "version": None},
                    {"action": action, "version": version, "extra": 1}, [], "x", None,
                    {"action": json.dumps(action), "version": version}, {"action": action, "version": 2.5},
                ))
        else:
            kind, action = fuzz.bad()
            body = {"action": action, "version": version}
        tally.actions += 1
        tally.kinds[kind] = tally.kinds.get(kind, 0) + 1
        before = game.state
        if kind == "body" and rng.random() < 0.3:  # not JSON at all
            raw = rng.choice((b"{", b"\xff\xfe", b"action=1", json.dumps(body).encode()[:-1]))
            answer = http.post(f"/games/{game_id}/actions", content=raw, headers={"Content-Type": "application/json"})
        else:
            answer = http.post(f"/games/{game_id}/actions", json=body)
        status = answer.status_code
        tally.statuses[str(status)] = tally.statuses.get(str(status), 0) + 1
        if status >= 500:
            fail("server_errors", f"{kind} {body!r}: {status} {answer.text[:300]}")
            unchanged(kind)
            continue
        if status != 200:
            tally.refused += 1
            if legal_step:
                fail("invariant_violations", f"a legal action was refused: {body!r}: {status} {answer.text[:300]}")
            unchanged(kind)
            continue
        tally.accepted += 1
        entry = answer.json()
        events = tuple(event_from_json(e) for e in entry["events"])
        mirror.append(entry["action"], events)
        if entry["version"] != version + 1 or entry["state_hash"] != mirror.state.hash():
            fail("replay_mismatches", f"{kind} {body!r}: the entry's events reach another state than the "
                 f"server's ({entry['state_hash']})")
            break
        found = check_step(before, events, game.state, ruleset)
        if found:
            fail("invariant_violations", f"{kind} {body!r}: {found[:3]}")
        if rng.random() < 0.03:  # the undo door: it takes back an entry or changes nothing
            answer = owner.post(f"/games/{game_id}/undo", json={"version": game.state.version, "power": power})
            if answer.status_code >= 500:
                fail("server_errors", f"undo: {answer.status_code} {answer.text[:300]}")
            if answer.status_code == 200:
                mirror = _mirror(owner.get(f"/games/{game_id}/export").json())
                game = Game(mirror)
            else:
                unchanged("undo")
    _check_export(owner, game_id, game, fail, verify_export)
    tally.seconds = time.perf_counter() - start
    return tally


def _pick_any_legal(fuzz: Fuzzer, game: Game, power: str | None, acting: list[str]) -> dict[str, Any] | None:
    """A legal action for `power`, or (in a team turn, when it has none while a teammate's battle blocks it) for
    another acting power."""
    action = fuzz.pick_legal(game, power)
    for other in acting:
        if action is not None or power is None:
            break
        if other != power:
            action = fuzz.pick_legal(game, other)
    return action


def _check_export(owner: Any, game_id: str, game: Game, fail: Callable[[str, str], None],
                  verify: Callable[[Any], Any]) -> None:
    """The export verifies, and replays to the state the mirror and the server agree on."""
    answer = owner.get(f"/games/{game_id}/export")
    if answer.status_code != 200:
        fail("server_errors", f"export: {answer.status_code} {answer.text[:300]}")
        return
    export = answer.json()
    report = verify(export)
    if not report.ok:
        fail("replay_mismatches", f"the export does not verify: {report.problems[:3]}")
        return
    replayed = GameLog.from_json(export).state.hash()
    view = owner.get(f"/games/{game_id}").json()
    if not replayed == game.state.hash() == view["state_hash"]:
        fail("replay_mismatches", "the export, the log followed and the server disagree on the state hash")
    problem = replay_problem(game.log)
    if problem:
        fail("replay_mismatches", problem)
