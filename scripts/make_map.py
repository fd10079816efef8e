#!/usr/bin/env python3
"""Regenerate the world map geometry of a board from its hand-written positions and coastlines.

.venv/bin/python scripts/make_map.py            # every board with map positions: <family>/data/map/<board>-map.json
.venv/bin/python scripts/make_map.py --ruleset lhtr-1.3   # only the board of that ruleset
.venv/bin/python scripts/make_map.py --check    # exit 1 if a committed file is out of date
.venv/bin/python scripts/make_map.py --ruleset lhtr-1.3 --svg /tmp/map.svg   # also render the start position
.venv/bin/python scripts/make_map.py --ruleset aarhe --option italy=true   # a map variant an option plays on
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from aare.rules.ruleset import available_rulesets, load_ruleset, load_spec
from aare.web.map_build import build_map, dumps, geometry_path
from aare.web.map_sources import positions_path


def map_rulesets() -> list[str]:
    """One ruleset per board that ships map positions (the first by id)."""
    found: dict[str, str] = {}
    for ruleset in available_rulesets():
        board = load_spec(ruleset).board
        if board not in found and positions_path(board).is_file():
            found[board] = ruleset
    return sorted(found.values())


def make(ruleset: str, out: Path | None, check: bool, svg: Path | None, options: dict[str, str] | None = None
         ) -> int:
    board = load_ruleset(ruleset, options or {}).board
    started = time.perf_counter()
    geometry = build_map(board)
    text = dumps(geometry)
    out = out or geometry_path(board.id)
    report = geometry["report"]
    print(
        f"{board.id}: {len(geometry['spaces'])} spaces in {time.perf_counter() - started:.1f}s, {len(text) // 1024} KiB"
    )
    print(f"board adjacencies without a shared border ({len(report['unshared'])}):")
    for a, b in report["unshared"]:
        print(f"  {a} - {b}")
    print(f"shared borders the board does not list ({len(report['extra'])}):")
    for a, b in report["extra"]:
        print(f"  {a} - {b}")
    for warning in report["warnings"]:
        print(f"warning: {warning}")
    status = 0
    if check:
        current = out.read_text(encoding="utf-8") if out.is_file() else ""
        if current != text:
            print(f"{out} is out of date: run scripts/make_map.py", file=sys.stderr)
            status = 1
        else:
            print(f"{out} is up to date")
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")
    if svg:
        from aare.game_setup import new_game
        from aare.web.map_geometry import MapGeometry
        from aare.web.map_svg import render_map

        state = new_game(ruleset, options or {}, seed=1).state
        svg.write_text(render_map(state, board, geometry=MapGeometry.from_json(geometry)), encoding="utf-8")
        print(f"wrote {svg}")
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", help="ruleset whose board to draw (default: every board that ships a map)")
    parser.add_argument("--out", type=Path, help="output file (default: the board's map file in <family>/data/map)")
    parser.add_argument("--check", action="store_true", help="only compare with the existing file")
    parser.add_argument("--svg", type=Path, help="also write an SVG of the starting position here")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a ruleset option (a map variant it plays on); with --ruleset")
    args = parser.parse_args(argv)
    rulesets = [args.ruleset] if args.ruleset else map_rulesets()
    if len(rulesets) != 1 and (args.out or args.svg or args.option):
        parser.error("--out, --svg and --option need --ruleset")
    options = dict(o.split("=", 1) for o in args.option)
    return max((make(r, args.out, args.check, args.svg, options) for r in rulesets), default=0)


if __name__ == "__main__":
    sys.exit(main())
