"""The layers of the core: no package cycle outside the ruleset families, and the core never imports them."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "aare"


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


def test_the_core_and_the_surfaces_never_import_a_ruleset_family() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if (PACKAGE / "rulesets") in path.parents:
            continue
        names = [n for n in _imports(path) if n == "aare.rulesets" or n.startswith("aare.rulesets.")]
        if names:
            offenders.append(f"{path.relative_to(SRC)}: {sorted(names)[0]}")
    assert offenders == [], "the core reaches rulesets only through aare.rules.registry:\n" + "\n".join(offenders)


def test_the_layering_tool_finds_no_package_cycle(shared_dir: Path) -> None:
    tool = shared_dir / "tools" / "layering.py"
    if not tool.is_file():
        pytest.skip(f"{tool} is not present")
    out = subprocess.run([sys.executable, str(tool), str(SRC), "aare", "--exclude", "aare.rulesets", "--json"],
                         capture_output=True, text=True, check=True).stdout
    report = json.loads(out)
    assert report["package_cycles"] == []
    assert report["module_cycles"] == []
