"""The core names no power: every power name comes from a board file, so the core serves any board.

Scans the string literals of every module of `src/aare` outside `src/aare/rulesets/` (docstrings excepted:
they may give examples) and the text of the web templates, styles and scripts.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

import aare
from aare.rules.registry import data_file, data_names

SRC = Path(aare.__file__).resolve().parent
RULESETS = SRC / "rulesets"
WEB = SRC / "web"
VENDORED = {"htmx.min.js"}

# Word-start stems, matched case-insensitively: "Russian", "Japan's" and "Germans" are hits, "machina" and
# "capitalize" are not.
STEMS = (
    r"russia", r"soviet", r"german", r"britain", r"british", r"united\s+kingdom", r"japan", r"united\s+states",
    r"america", r"ital(?:y|ian)", r"chin(?:a|ese)", r"anzac", r"france", r"french",
)
# Abbreviations, matched case-sensitively as whole words ("US" but not "us", "bus" or "USB").
ABBREVIATIONS = ("UK", "US", "USA", "USSR")


def board_names() -> set[str]:
    """Every power name and alias of every board the registry knows."""
    names: set[str] = set()
    for board_id in data_names("boards"):
        raw = tomllib.loads(data_file("boards", board_id).read_text(encoding="utf-8"))
        for power in raw.get("power", []):
            names.add(power["name"])
            names.update(power.get("aliases", []))
    return names


def patterns() -> list[re.Pattern[str]]:
    stems = list(STEMS)
    words = set(ABBREVIATIONS)
    for name in board_names():
        if name.isupper():
            words.add(name)
        else:
            stems.append(r"\s+".join(re.escape(part) for part in name.split()))
    return [
        re.compile(r"\b(?:" + "|".join(stems) + ")", re.IGNORECASE),
        re.compile(r"\b(?:" + "|".join(re.escape(w) for w in sorted(words)) + r")\b"),
    ]


def core_files(suffix: str) -> Iterator[Path]:
    for path in sorted(SRC.rglob(f"*{suffix}")):
        if RULESETS not in path.parents:
            yield path


def docstrings(tree: ast.AST) -> set[int]:
    """ids of the constant nodes that are module, class or function docstrings."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def python_literals(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every str constant of a module, f-string parts included, docstrings excepted."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skip = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.lineno, node.value


def text_lines(path: Path) -> Iterator[tuple[int, str]]:
    yield from enumerate(path.read_text(encoding="utf-8").splitlines(), 1)


def sources() -> Iterator[tuple[Path, int, str]]:
    for path in core_files(".py"):
        for line, text in python_literals(path):
            yield path, line, text
    for suffix in (".html", ".css", ".js"):
        for path in sorted(WEB.rglob(f"*{suffix}")):
            if path.name not in VENDORED:
                for line, text in text_lines(path):
                    yield path, line, text


def hits(found: Iterator[tuple[Path, int, str]], checks: list[re.Pattern[str]]) -> list[str]:
    return [
        f"{path.relative_to(SRC.parent.parent)}:{line}: {text.strip()!r}"
        for path, line, text in found
        if any(check.search(text) for check in checks)
    ]


def test_the_core_names_no_power() -> None:
    bad = hits(sources(), patterns())
    assert not bad, "power names in the core (take them from the board or ruleset):\n" + "\n".join(bad)


@pytest.mark.parametrize(
    ("text", "hit"),
    [
        ("Russian Winter", True),
        ("Japan's Kaitens", True),
        ("the Germans", True),
        ("bid for the Axis", False),
        ("deus ex machina", False),
        ("capitalize", False),
        ("UK", True),
        ("the US fleet", True),
        ("let us move", False),
        ("USB", False),
        ("Chinese", True),
        ("Italian", True),
        ("French Indo-China", True),
        ("ANZAC", True),
        ("Soviet Union", True),
    ],
)
def test_the_scan_finds_names_inside_words_only_at_word_starts(text: str, hit: bool) -> None:
    assert any(check.search(text) for check in patterns()) is hit


def test_docstrings_are_excepted_and_f_string_parts_scanned(tmp_path: Path) -> None:
    module = tmp_path / "example.py"
    module.write_text(
        '"""Russia moves first."""\n'
        "def f(x):\n"
        '    """Germany next."""\n'
        '    return f"{x} attacks Japan"\n'
        "class C:\n"
        '    """United Kingdom."""\n'
        '    name = "neutral"\n',
        encoding="utf-8",
    )
    found = [text for _, text in python_literals(module) if any(p.search(text) for p in patterns())]
    assert found == [" attacks Japan"]
