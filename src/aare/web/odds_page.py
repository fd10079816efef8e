"""The battle calculator in the browser: unit pickers, order of loss, retreat policy, and the result with
its survivor charts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from aare.board.notation import format_units, parse_units
from aare.errors import AareError
from aare.odds import odds
from aare.odds.report import BattleOdds
from aare.rules.registry import default_ruleset
from aare.rules.ruleset import available_rulesets, load_ruleset
from aare.server.api.auth import OptionalCaller
from aare.web.battle_odds import SOLVING
from aare.web.odds_chart import damage_chart, outcome_bar, survivors_chart
from aare.web.templating import is_htmx, render

router = APIRouter(tags=["pages"], include_in_schema=False)
KINDS = ("land", "sea", "amphibious", "raid", "rocket")
RAIDS = ("raid", "rocket")
AA_CHOICES = (("", "as usual (a raid's target: yes)"), ("yes", "yes"), ("no", "no"))
LANDINGS = (("", "anywhere"), ("defender", "defender's on its carriers"), ("attacker", "attacker's on its carriers"),
            ("both", "both sides' on their carriers"))  # sea battles: where aircraft must land afterwards
RETREATS = (("never", "fight to the end"), ("after", "retreat after N cycles"),
            ("at", "retreat when down to N units"), ("air", "retreat when only aircraft remain"),
            ("below", "retreat when the chance to win falls under N %"))
MAX_UNITS = 99
MAX_RUNS = 10_000
MAX_BATTLE = 80  # units on both sides together
MAX_EXACT_SEA = 50  # exact up to 25 v 25 at sea (a fraction of a second); larger ones: Monte Carlo


@dataclass
class OddsForm:
    """The calculator form's values."""

    rules: str = field(default_factory=default_ruleset)
    battle: str = "land"
    attacker: dict[str, int] = field(default_factory=lambda: {"infantry": 3, "artillery": 1, "armour": 2})
    defender: dict[str, int] = field(default_factory=lambda: {"infantry": 4})
    ool_attacker: str = ""
    ool_defender: str = ""
    retreat: str = "never"
    retreat_n: int = 1
    land_on_carriers: str = ""  # sea: "", attacker, defender or both
    defender_aa: bool | None = None  # None: as usual (a raid's target has one, a battle's territory not)
    bombard: str = ""
    fleet: str = ""  # amphibious: the whole assault, the sea battle first
    sea_defender: str = ""
    loads: str = ""
    territory_value: int | None = None
    treasury: int | None = None
    attacker_techs: tuple[str, ...] = ()
    defender_techs: tuple[str, ...] = ()
    method: str = "exact"
    runs: int = 5000

    @classmethod
    def read(cls, form: FormData) -> OddsForm:
        def number(key: str, default: int, top: int) -> int:
            try:
                return max(0, min(top, int(str(form.get(key) or default))))
            except ValueError:
                return default

        def cap(key: str) -> int | None:
            return number(key, 0, 999) if str(form.get(key) or "").strip() else None

        rules = str(form.get("rules") or default_ruleset())
        ruleset = load_ruleset(rules if rules in available_rulesets() else default_ruleset())
        units = ruleset.units
        techs = {side: tuple(t for t in ruleset.modify("technologies", ()) if form.get(f"{side}_tech:{t}") is not None)
                 for side in ("att", "def")}
        picked = {side: {u.id: number(f"{side}:{u.id}", 0, MAX_UNITS) for u in units} for side in ("att", "def")}
        return cls(
            rules=rules, battle=str(form.get("battle") or "land"),
            attacker={k: v for k, v in picked["att"].items() if v},
            defender={k: v for k, v in picked["def"].items() if v},
            ool_attacker=str(form.get("ool_attacker") or ""), ool_defender=str(form.get("ool_defender") or ""),
            retreat=str(form.get("retreat") or "never"), retreat_n=number("retreat_n", 1, 99),
            land_on_carriers=str(form.get("land_on_carriers") or ""),
            defender_aa=aa_choice(form.get("defender_aa")), bombard=str(form.get("bombard") or ""),
            territory_value=cap("territory_value"), treasury=cap("treasury"),
            attacker_techs=techs["att"], defender_techs=techs["def"],
            fleet=str(form.get("fleet") or ""), sea_defender=str(form.get("sea_defender") or ""),
            loads=str(form.get("loads") or ""),
            method=str(form.get("method") or "exact"), runs=max(100, number("runs", 5000, MAX_RUNS)),
        )

    @property
    def assault(self) -> bool:
        """An amphibious assault with its sea battle (a fleet is given)."""
        return self.battle == "amphibious" and bool(self.fleet.strip())

    def sea_size(self) -> int:
        """Units in the assault's sea battle (none without enemy ships there)."""
        if not self.assault or not self.sea_defender.strip():
            return 0
        units = load_ruleset(self.rules).units
        return sum(n for text in (self.fleet, self.sea_defender) for n in parse_units(text, units).values())

    def calculate(self) -> BattleOdds:
        extra: dict[str, Any] = {"attacker_techs": frozenset(self.attacker_techs),
                                 "defender_techs": frozenset(self.defender_techs)}
        if self.defender_aa is not None:
            extra["defender_aa"] = self.defender_aa
        if self.battle in RAIDS:
            extra.update(territory_value=self.territory_value, treasury=self.treasury)
        if self.bombard.strip() and self.battle == "amphibious":
            extra["bombard"] = self.bombard
        if self.assault:
            extra.update(fleet=self.fleet, sea_defender=self.sea_defender, loads=self.loads)
        if self.battle == "sea" and self.land_on_carriers:
            both = ("attacker", "defender")
            extra["land_on_carriers"] = both if self.land_on_carriers == "both" else self.land_on_carriers
        retreat = "never" if self.battle in RAIDS else self.retreat  # a raid has no retreat
        with SOLVING:
            return odds(
                self.attacker, self.defender, self.rules, battle=self.battle, method=self.method, runs=self.runs,
                ool_attacker=self.ool_attacker, ool_defender=self.ool_defender,
                retreat_after=self.retreat_n if retreat == "after" else None,
                retreat_at_units=self.retreat_n if retreat == "at" else None,
                retreat_when_only_air=retreat == "air",
                retreat_below=self.retreat_n / 100 if retreat == "below" else None, **extra,
            )


def aa_choice(value: object) -> bool | None:
    """The AA gun field: "yes" (or a ticked box), "no", or anything else for as usual."""
    text = str(value or "").strip().lower()
    return True if text in ("yes", "on") else False if text == "no" else None


def _context(form: OddsForm) -> dict[str, Any]:
    ruleset = load_ruleset(form.rules)
    units = ruleset.units
    pickers: list[dict[str, Any]] = [
        {"id": u.id, "name": u.display, "domain": u.domain, "attack": u.attack, "defense": u.defense, "cost": u.cost}
        for u in units if u.domain != "building"
    ]
    return {"form": form, "rulesets": available_rulesets(), "kinds": KINDS, "retreats": RETREATS, "landings": LANDINGS,
            "aa_choices": AA_CHOICES, "pickers": pickers, "techs": ruleset.modify("technologies", ()),
            "default_ool": ", ".join(p["id"] for p in sorted(pickers, key=lambda p: p["cost"]))}


def _result(form: OddsForm) -> dict[str, Any]:
    if (not form.attacker and form.battle != "rocket") or (not form.defender and form.battle not in RAIDS):
        return {"error": "Choose units for both sides." if form.battle not in RAIDS else "Choose the raiding bombers."}
    size = sum(form.attacker.values()) + sum(form.defender.values())
    if size > MAX_BATTLE:
        return {"error": f"At most {MAX_BATTLE} units in one battle here ({size} chosen)."}
    if form.method == "exact" and form.battle == "sea" and size > MAX_EXACT_SEA:
        return {"error": f"Sea battles of more than {MAX_EXACT_SEA} units are solved here by sampling: "
                         "choose Monte Carlo."}
    try:
        if form.assault and form.method == "exact" and form.sea_size() > MAX_EXACT_SEA:
            return {"error": f"Sea battles of more than {MAX_EXACT_SEA} units are not solved exactly here, and an "
                             "assault is solved exactly only: a smaller fleet, please."}
        result = form.calculate()
    except AareError as exc:
        return {"error": str(exc)}
    units = load_ruleset(form.rules).units
    return {
        "result": result, "bar": outcome_bar(result), "attacker_chart": survivors_chart(result, "attacker"),
        "damage_chart": damage_chart(result) if result.expected_damage is not None else "",
        "defender_chart": survivors_chart(result, "defender"),
        "attacker_text": format_units(form.attacker, units), "defender_text": format_units(form.defender, units),
        "fleet_text": form.fleet if form.assault else "",
        "sea_defender_text": form.sea_defender if form.assault else "",
    }


@router.get("/odds", response_class=HTMLResponse)
async def odds_page(request: Request, who: OptionalCaller) -> Response:
    """The calculator's form, for the ruleset `?rules=` names (its units and techs), else the default one."""
    rules = request.query_params.get("rules", "")
    form = OddsForm(rules=rules) if rules in available_rulesets() else OddsForm()
    return render(request, "odds.html", user=who.user if who else None, csrf=who.csrf_token if who else None,
                  outcome=None, **_context(form))


@router.post("/odds", response_class=HTMLResponse)
async def odds_result(request: Request, who: OptionalCaller) -> Response:
    form = OddsForm.read(await request.form())
    outcome = await run_in_threadpool(_result, form)
    if is_htmx(request):
        return render(request, "_odds_result.html", outcome=outcome)
    return render(request, "odds.html", user=who.user if who else None, csrf=who.csrf_token if who else None,
                  outcome=outcome, **_context(form))
