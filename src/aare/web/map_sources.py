"""The hand-written inputs of the map: space positions (`<board>-positions.toml`) and coastlines
(`<board>-coast.toml`), both in approximate latitude/longitude degrees."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aare.errors import MalformedInput, UnknownName
from aare.rules.registry import data_file
from aare.web.map_projection import Bump, Lens, Projection


class MapDataError(MalformedInput):
    """A map positions or coastline file, or the map made from them, that fails validation."""




def map_dir(board_id: str) -> Path:
    """The map folder of the family that ships the map of board `board_id` (`<family>/data/map/`): the one with its
    positions file, else the one with its board file (a map variant made by board changes has no board file)."""
    try:
        return data_file("map", f"{board_id}-positions").parent
    except UnknownName:
        return data_file("boards", board_id).parent.parent / "map"

LatLon = tuple[float, float]


@dataclass(frozen=True)
class RegionSpec:
    """A board space or a decorative region (`decor`, e.g. the Arctic Ocean): where its seeds are.

    `at` is the centre; `seeds` are further points that shape its cell; `reach` (degrees) caps how far its
    cell extends from its seeds; `outline`, when given, is claimed outright; `label` overrides the anchor.
    """

    name: str
    kind: str
    at: LatLon
    seeds: tuple[LatLon, ...] = ()
    reach: float | None = None
    outline: tuple[LatLon, ...] = ()
    label: LatLon | None = None
    decor: bool = False


@dataclass(frozen=True)
class Islet:
    """A small island drawn as a disc of `radius` map units, so that it stays visible and clickable."""

    name: str
    at: LatLon
    radius: float


@dataclass(frozen=True)
class Coast:
    """Land polygons, water polygons cut out of them (inland seas, straits) and islets."""

    land: tuple[tuple[str, tuple[LatLon, ...]], ...]
    water: tuple[tuple[str, tuple[LatLon, ...]], ...]
    islets: tuple[Islet, ...]


@dataclass(frozen=True)
class MapSpec:
    """Everything the map is made from."""

    board: str
    projection: Projection
    cell: float
    regions: tuple[RegionSpec, ...]
    coast: Coast


def positions_path(board_id: str) -> Path:
    return map_dir(board_id) / f"{board_id}-positions.toml"


def coast_path(board_id: str) -> Path:
    return map_dir(board_id) / f"{board_id}-coast.toml"


def load_spec(board_id: str, directory: Path | None = None) -> MapSpec:
    """Read the positions and coastline files of a board."""
    directory = directory or map_dir(board_id)
    pos_file = directory / f"{board_id}-positions.toml"
    coast_file = directory / f"{board_id}-coast.toml"
    raw = _based(_read(pos_file))
    base = raw.get("map", {}).get("base")
    if base is None:
        coast = _read(coast_file)
    else:  # a map variant: the base board's coastlines, and the variant's own (islets) if it has a file
        own = _read(coast_file) if coast_file.is_file() else {}
        coast = _merged(_read(map_dir(str(base)) / f"{base}-coast.toml"), own, ("land", "water", "islet"))
    meta = raw.get("map", {})
    projection = Projection(
        cut=float(meta["cut"]),
        north=float(meta["north"]),
        south=float(meta["south"]),
        width=float(meta["width"]),
        lon_stretch=tuple(_bump(b) for b in meta.get("lon_stretch", [])),
        lat_stretch=tuple(_bump(b) for b in meta.get("lat_stretch", [])),
        lenses=tuple(_lens(b) for b in meta.get("lenses", [])),
    )
    regions = [_region(name, body, decor=False, where=pos_file) for name, body in raw.get("space", {}).items()]
    regions += [_region(name, body, decor=True, where=pos_file) for name, body in raw.get("decor", {}).items()]
    return MapSpec(board_id, projection, float(meta.get("cell", 2.0)), tuple(regions), _coast(coast))


def _based(raw: dict[str, Any]) -> dict[str, Any]:
    """A positions file with `base = "<board>"` in its `[map]` table (a map variant): the base board's positions
    with this file's `[map]` keys, spaces and decor over them, and `[remove]` `spaces` left out."""
    base = raw.get("map", {}).get("base")
    if base is None:
        return raw
    found = _based(_read(map_dir(str(base)) / f"{base}-positions.toml"))
    gone = set(raw.get("remove", {}).get("spaces", []))
    spaces = {k: v for k, v in {**found.get("space", {}), **raw.get("space", {})}.items() if k not in gone}
    return {"map": {**found.get("map", {}), **raw.get("map", {})}, "space": spaces,
            "decor": {**found.get("decor", {}), **raw.get("decor", {})}}


def _merged(base: dict[str, Any], extra: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """Coastlines: the base board's lists with a variant's own appended."""
    return {key: [*base.get(key, []), *extra.get(key, [])] for key in keys}


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MapDataError(f"{path}: {exc}") from exc


def _bump(raw: Any) -> Bump:
    centre, half_width, extra = (float(v) for v in raw)
    return (centre, half_width, extra)


def _lens(raw: Any) -> Lens:
    lat, lon, radius, magnification = (float(v) for v in raw)
    if not 0 <= magnification < 2:
        raise MapDataError(f"lens magnification must be in [0, 2), got {magnification}")
    return (lat, lon, radius, magnification)


def _latlon(raw: Any, where: str) -> LatLon:
    if not (isinstance(raw, list) and len(raw) == 2 and all(isinstance(v, int | float) for v in raw)):
        raise MapDataError(f"{where}: expected [lat, lon], got {raw!r}")
    lat, lon = float(raw[0]), float(raw[1])
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise MapDataError(f"{where}: [lat, lon] out of range: {raw!r}")
    return (lat, lon)


def _points(raw: Any, where: str) -> tuple[LatLon, ...]:
    return tuple(_latlon(p, where) for p in raw or [])


def _region(name: str, body: dict[str, Any], *, decor: bool, where: Path) -> RegionSpec:
    here = f"{where.name}: {name}"
    kind = body.get("kind", "land" if decor else "")
    label = body.get("label")
    return RegionSpec(
        name=name,
        kind=str(kind),
        at=_latlon(body.get("at"), here),
        seeds=_points(body.get("seeds"), here),
        reach=float(body["reach"]) if "reach" in body else None,
        outline=_points(body.get("outline"), here),
        label=_latlon(label, here) if label is not None else None,
        decor=decor,
    )


def _coast(raw: dict[str, Any]) -> Coast:
    def polys(key: str) -> tuple[tuple[str, tuple[LatLon, ...]], ...]:
        return tuple((str(p["name"]), _points(p["points"], f"{key} {p['name']}")) for p in raw.get(key, []))

    islets = tuple(
        Islet(str(i["name"]), _latlon(i["at"], f"islet {i['name']}"), float(i["radius"])) for i in raw.get("islet", [])
    )
    return Coast(polys("land"), polys("water"), islets)
