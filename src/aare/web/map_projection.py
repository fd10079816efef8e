"""A cylindrical world projection with extra room for crowded parts of the board.

x grows with longitude east of the `cut` meridian (the left and right edge); y grows southwards. The scale
along each axis is a density: 1 per degree of longitude, Miller's `1/cos(0.8 lat)` per degree of latitude,
each multiplied by Gaussian "stretch" bumps (`centre, half_width, extra`) that enlarge Europe and the like.
Before that, optional lenses (`lat, lon, radius, magnification`) push points away from a centre, enlarging
a small area (a crowded group of islands) in both directions; each lens is monotone, so it can be inverted exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

Bump = tuple[float, float, float]
Lens = tuple[float, float, float, float]
_STEP = 0.05  # degrees per table entry


@dataclass(frozen=True)
class Projection:
    """Maps (lat, lon) degrees to map units and back; `width` is the full 360 degrees."""

    cut: float
    north: float
    south: float
    width: float
    lon_stretch: tuple[Bump, ...] = ()
    lat_stretch: tuple[Bump, ...] = ()
    lenses: tuple[Lens, ...] = ()
    _u: NDArray[np.float64] = field(init=False, repr=False, compare=False)
    _x: NDArray[np.float64] = field(init=False, repr=False, compare=False)
    _lat: NDArray[np.float64] = field(init=False, repr=False, compare=False)
    _y: NDArray[np.float64] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        u = np.arange(0.0, 360.0 + _STEP / 2, _STEP)
        dx = 1.0 + _bumps((self.cut + u + 180.0) % 360.0 - 180.0, self.lon_stretch, wrap=True)
        x = _integrate(dx, _STEP)
        scale = self.width / x[-1]
        lat = np.arange(self.south, self.north + _STEP / 2, _STEP)
        dy = (1.0 + _bumps(lat, self.lat_stretch, wrap=False)) / np.cos(np.radians(0.8 * lat))
        y = _integrate(dy, _STEP) * scale
        object.__setattr__(self, "_u", u)
        object.__setattr__(self, "_x", x * scale)
        object.__setattr__(self, "_lat", lat)
        object.__setattr__(self, "_y", y[-1] - y)

    @property
    def height(self) -> float:
        return float(self._y[0])

    def warp(self, lat: ArrayLike, lon: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Apply the lenses: true (lat, lon) to the (lat, lon) that the cylindrical part then draws."""
        lat, lon = np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)
        for lat0, lon0, radius, magnification in self.lenses:
            dy, dx, k = _local(lat, lon, lat0, lon0)
            r = np.hypot(dx, dy) / radius
            f = 1.0 + magnification * np.exp(-(r**2))
            lat, lon = lat0 + dy * f, lon0 + dx * f / k
        return lat, lon

    def unwarp(self, lat: ArrayLike, lon: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Undo the lenses."""
        lat, lon = np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)
        for lat0, lon0, radius, magnification in reversed(self.lenses):
            dy, dx, k = _local(lat, lon, lat0, lon0)
            r_out = np.hypot(dx, dy) / radius
            table = np.linspace(0.0, 8.0, 8001)
            r_in = np.interp(r_out, table * (1.0 + magnification * np.exp(-(table**2))), table, right=np.nan)
            r_in = np.where(np.isnan(r_in), r_out, r_in)
            f = np.divide(r_in, r_out, out=np.ones_like(r_out), where=r_out > 0)
            lat, lon = lat0 + dy * f, lon0 + dx * f / k
        return lat, lon

    def forward(self, lat: ArrayLike, lon: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Map units (x, y) of true (lat, lon)."""
        wlat, wlon = self.warp(lat, lon)
        return self.x(wlon), self.y(wlat)

    def inverse(self, x: ArrayLike, y: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """True (lat, lon) of map units (x, y)."""
        return self.unwarp(self.lat(y), self.lon(x))

    def unwrap(self, lon: ArrayLike) -> NDArray[np.float64]:
        """Degrees east of the cut, in [0, 360)."""
        return np.asarray((np.asarray(lon, dtype=float) - self.cut) % 360.0, dtype=float)

    def x_of_u(self, u: ArrayLike) -> NDArray[np.float64]:
        """x of degrees east of the cut; values outside [0, 360) land beyond the map edges."""
        u = np.asarray(u, dtype=float)
        turns = np.floor(u / 360.0)
        return np.asarray(turns * self.width + np.interp(u - 360.0 * turns, self._u, self._x), dtype=float)

    def x(self, lon: ArrayLike) -> NDArray[np.float64]:
        return self.x_of_u(self.unwrap(lon))

    def y(self, lat: ArrayLike) -> NDArray[np.float64]:
        clipped = np.clip(np.asarray(lat, dtype=np.float64), self.south, self.north)
        return np.asarray(np.interp(clipped, self._lat, self._y), dtype=np.float64)

    def lon(self, x: ArrayLike) -> NDArray[np.float64]:
        u = np.interp(np.asarray(x, dtype=float), self._x, self._u)
        return np.asarray((u + self.cut + 180.0) % 360.0 - 180.0, dtype=float)

    def lat(self, y: ArrayLike) -> NDArray[np.float64]:
        return np.asarray(np.interp(-np.asarray(y, dtype=float), -self._y, self._lat), dtype=float)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": "stretched-miller",
            "cut": self.cut,
            "north": self.north,
            "south": self.south,
            "lon_stretch": [list(b) for b in self.lon_stretch],
            "lat_stretch": [list(b) for b in self.lat_stretch],
            "lenses": [list(b) for b in self.lenses],
        }


def unwrap_ring(lons: Sequence[float], cut: float) -> list[float]:
    """Degrees east of the cut for a polygon's longitudes, continuous along the ring (may leave [0, 360))."""
    out: list[float] = []
    for lon in lons:
        u = (lon - cut) % 360.0
        if out:
            u += 360.0 * round((out[-1] - u) / 360.0)
        out.append(u)
    return out


def _local(
    lat: NDArray[np.float64], lon: NDArray[np.float64], lat0: float, lon0: float
) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
    """Offsets from a lens centre in degrees of latitude (dx shrunk by cos lat0), and that factor."""
    k = float(np.cos(np.radians(lat0)))
    return lat - lat0, ((lon - lon0 + 180.0) % 360.0 - 180.0) * k, k


def _bumps(values: NDArray[np.float64], bumps: Sequence[Bump], *, wrap: bool) -> NDArray[np.float64]:
    total = np.zeros_like(values)
    for centre, half_width, extra in bumps:
        delta = values - centre
        if wrap:
            delta = (delta + 180.0) % 360.0 - 180.0
        total += extra * np.exp(-((delta / half_width) ** 2))
    return total


def _integrate(density: NDArray[np.float64], step: float) -> NDArray[np.float64]:
    out = np.zeros_like(density)
    out[1:] = np.cumsum((density[1:] + density[:-1]) * (step / 2.0))
    return out
