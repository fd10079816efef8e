"""The side panel's declarations (a `declare_*` action no other panel offers, e.g. D-Day) and the game-wide records
with a status the ruleset's summary lists (D-Day, the treaty)."""

from __future__ import annotations

import pytest

pytest.importorskip("jinja2", reason="the server extra is not installed")

from aare.scenario import scenario
from aare.web import table_view as tv


@pytest.mark.rule("AA50E-DDAY-declare-once")
def test_d_day_is_offered_apart_and_its_record_follows_the_declaration() -> None:
    game = scenario("aa50e-1941", nation="United Kingdom", phase="develop-weapons", round=2)
    legal = [a.to_json() for a in game.legal_actions()]
    assert [d["text"] for d in tv.declarations(legal)] == ["declare D-Day"]
    assert all(o["action"]["type"] != "declare_d_day" for o in tv.other_actions(legal))
    assert tv.nations(game.state)["records"] == ["D-Day: available", "Treaty: active"]
    game.apply({"type": "declare_d_day"})
    legal = [a.to_json() for a in game.legal_actions()]
    assert tv.declarations(legal) == []
    assert tv.nations(game.state)["records"] == ["D-Day: declared in round 2", "Treaty: active"]


def test_a_ruleset_without_records_shows_none() -> None:
    assert tv.nations(scenario("lhtr-1.3").state)["records"] == []
