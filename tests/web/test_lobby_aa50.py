"""The new-game form for the Anniversary games: six nation seats with China beside the United States, or seven
seats when every power has its own."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")

from starlette.datastructures import FormData

from aare.web.lobby import new_game_request, ruleset_forms


def test_the_form_lists_china_beside_the_united_states_or_on_its_own() -> None:
    form = next(r for r in ruleset_forms() if r["id"] == "aa50-1942")
    nations = {n["name"]: [w["name"] for w in n["with"]] for n in form["nations"]}
    assert nations == {"Japan": [], "Soviet Union": [], "Germany": [], "United Kingdom": [], "Italy": [],
                       "United States": ["China"]}
    assert [p["name"] for p in form["powers"]][-1] == "China" and len(form["powers"]) == 7
    assert form["sides"] == ["Axis", "Allies"]


def test_a_game_seated_by_power_gives_china_its_seat() -> None:
    fields = [("ruleset", "aa50-1942"), ("seating", "powers"), ("seat:aa50-1942:powers:Italy", "me"),
              ("seat:aa50-1942:powers:China", "random")]
    ruleset, _, seating, seats = new_game_request(FormData(fields))
    assert (ruleset, seating) == ("aa50-1942", "powers")
    assert seats["Italy"] == "me" and seats["China"] == "random" and seats["Japan"] == "open"
    assert len(seats) == 7
    _, _, _, by_nation = new_game_request(FormData([("ruleset", "aa50-1942"), ("seating", "nations")]))
    assert "China" not in by_nation and len(by_nation) == 6
