"""The web battle calculator offers the Anniversary rulesets, with their units (cruisers) and techs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")
pytest.importorskip("jinja2", reason="the server extra is not installed")

from fastapi.testclient import TestClient

from aare.server.api import create_app
from aare.server.settings import Settings, sqlite_url


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(Settings(sqlite_url(tmp_path_factory.mktemp("odds")), bot_mode="inline",
                              register_address_limit=0), migrate=True)
    with TestClient(app) as c:
        yield c


@pytest.mark.rule("AA50-UNITS-cruiser")
def test_the_calculator_page_lists_the_anniversary_rulesets_and_their_cruisers(client: TestClient) -> None:
    page = client.get("/odds").text
    assert "<option >aa50-1941</option>" in page and "<option >aa50-1942</option>" in page
    aa50 = client.get("/odds", params={"rules": "aa50-1942"}).text
    assert 'name="att:cruiser"' in aa50 and "<option selected>aa50-1942</option>" in aa50
    assert 'name="def_tech:radar"' in aa50
    result = client.post("/odds", data={"rules": "aa50-1942", "battle": "sea", "att:cruiser": "2",
                                        "def:destroyer": "1", "def:transport": "1"}, headers={"HX-Request": "true"})
    assert 'id="attacker-win"' in result.text
    assert 'name="att:cruiser"' not in client.get("/odds", params={"rules": "nonsense"}).text
