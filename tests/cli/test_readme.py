"""The README as tested documentation: its command-line examples run, as written, through the installed `aare`
in an empty folder, and every step exits 0."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, SHARED

AARE = Path(sys.executable).with_name("aare")
PREFIX = ".venv/bin/aare"


def shell_block(section: str) -> list[str]:
    """The command lines of the first ```sh block of the README section headed `section`."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(section)}\n(.*?)(?=^## )", text, re.S | re.M)
    assert match, f"README.md has no section {section!r}"
    block = re.search(r"^```sh\n(.*?)^```", match.group(1), re.S | re.M)
    assert block, f"README.md: section {section!r} has no sh block"
    return [line for line in block.group(1).splitlines() if line.strip() and not line.startswith("#")]


def run(line: str, folder: Path) -> subprocess.CompletedProcess[str]:
    words = shlex.split(line, comments=True)
    assert words[0] == PREFIX, f"not an aare command: {line}"
    env = {k: v for k, v in os.environ.items() if k != "AARE_LEDGER_DIR"}
    return subprocess.run([str(AARE), *words[1:]], cwd=folder, capture_output=True, text=True, env=env,
                          timeout=300, check=False)


@pytest.fixture(autouse=True)
def _installed() -> None:
    if not AARE.exists():
        pytest.skip(f"the aare command is not installed beside {sys.executable}")


def test_the_command_line_walkthrough_runs_as_written(tmp_path: Path) -> None:
    lines = shell_block("Playing on the command line")
    assert len(lines) >= 15
    outputs = []
    for line in lines:
        done = run(line, tmp_path)
        assert done.returncode == 0, f"{line}\nexit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr}"
        outputs.append(done.stdout)
    said = dict(zip(lines, outputs, strict=True))
    fight = next(out for line, out in said.items() if '"fight West Russia"' in line)
    assert "waiting for: Germany chooses" in fight  # the decision the walkthrough answers next
    press = next(out for line, out in said.items() if '"press"' in line)
    assert "West Russia now held by Russia" in press
    undo = next(out for line, out in said.items() if line.split("#")[0].strip().endswith("undo game.json"))
    assert undo.startswith("undone: move 1 infantry Caucasus -> Russia")


def test_the_using_it_examples_run_as_written(tmp_path: Path) -> None:
    lines = shell_block("Using it")
    assert any(" rules list " in line for line in lines)
    for line in lines:
        done = run(line, tmp_path)
        if " rules " in line and not (SHARED / "rules").is_dir():  # the README says it needs ../shared/rules
            assert done.returncode == 2 and "../shared/rules" in done.stderr, done.stderr
            continue
        assert done.returncode == 0, f"{line}\nexit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr}"


def test_what_the_readme_says_scripts_test_checks_is_what_it_checks() -> None:
    script = (REPO / "scripts" / "test").read_text(encoding="utf-8")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "ruff check src tests $([ -d bench ] && echo bench)" in script
    assert "`ruff` over `src`, `tests` and `bench`" in readme
    assert re.search(r"^\.venv/bin/mypy src/aare$", script, re.M)  # the package only, not the tests
    assert "`mypy --strict` over the package (`src/aare`)" in readme
