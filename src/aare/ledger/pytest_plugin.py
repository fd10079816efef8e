"""pytest plugin: `@pytest.mark.rule("ID", ...)` tags a test with ledger items; `--rule-report` records them.

Marker IDs are checked against the ledgers at collection time. A test proves its IDs only when it passes;
a failure in setup, call or teardown counts as failed; skipped, xfailed and non-strict xpassed tests prove
nothing. Runs without pytest-xdist only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import pytest

from aare.errors import DataFileError
from aare.ledger.ledger import LEDGER_DIR_ENV, default_ledger_dir, load_ledgers

Outcome = Literal["passed", "failed", "skipped"]

_PLUGIN_NAME = "aare-rules-session"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("aare-rules", "rule ledger coverage")
    group.addoption(
        "--rule-report",
        metavar="FILE",
        default=None,
        help="write the rule IDs proven and failed by this run to FILE as JSON",
    )
    group.addoption(
        "--rule-ledger",
        metavar="DIR",
        default=None,
        help=f"folder of *.yaml rule ledgers to check rule markers against (default: ${LEDGER_DIR_ENV} "
        "or ../shared/rules next to the aare checkout)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(*ids): ledger rule items proven by this test")
    if not config.pluginmanager.has_plugin(_PLUGIN_NAME):
        config.pluginmanager.register(_RulePlugin(config), _PLUGIN_NAME)


class _RulePlugin:
    """Per-session record of each tagged test's rule IDs and outcome."""

    def __init__(self, config: pytest.Config) -> None:
        report = config.getoption("rule_report")
        self.report_path = config.invocation_params.dir / report if report else None
        self.ledger_dir: str | None = config.getoption("rule_ledger")
        self.rules: dict[str, list[str]] = {}
        self.outcomes: dict[str, Outcome] = {}
        self.unchecked = False

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        errors: list[str] = []
        for item in items:
            ids: list[str] = []
            for mark in item.iter_markers("rule"):
                if mark.kwargs or not mark.args or not all(isinstance(a, str) and a for a in mark.args):
                    errors.append(f"{item.nodeid}: rule marker needs one or more ID strings, got {mark!r}")
                    continue
                ids.extend(mark.args)
            if ids:
                self.rules[item.nodeid] = sorted(set(ids))
        if self.rules:
            errors.extend(self._check_ids())
        if errors:
            raise pytest.UsageError("rule markers:\n  " + "\n  ".join(errors))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.nodeid not in self.rules:
            return
        current = self.outcomes.get(report.nodeid)
        if report.failed:
            self.outcomes[report.nodeid] = "failed"
        elif current == "failed":
            return
        elif report.skipped or hasattr(report, "wasxfail"):
            self.outcomes[report.nodeid] = "skipped"
        elif report.when == "call":
            self.outcomes[report.nodeid] = "passed"

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.report_path is None or hasattr(session.config, "workerinput"):
            return
        self.report_path.parent.mkdir(parents=True, exist_ok=True)
        self.report_path.write_text(json.dumps(self.report(), indent=2) + "\n", encoding="utf-8")

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.rules and self.unchecked:
            terminalreporter.write_line(
                f"aare-rules: no rule ledger folder found (set ${LEDGER_DIR_ENV} or --rule-ledger); "
                "rule marker IDs were not checked",
                yellow=True,
            )
        if self.report_path is not None:
            terminalreporter.write_line(f"aare-rules: rule report written to {self.report_path}")

    def report(self) -> dict[str, object]:
        """The `--rule-report` content."""
        passed: set[str] = set()
        failed: set[str] = set()
        tests: dict[str, dict[str, object]] = {}
        for nodeid, outcome in self.outcomes.items():
            ids = self.rules[nodeid]
            tests[nodeid] = {"outcome": outcome, "rules": ids}
            if outcome == "passed":
                passed.update(ids)
            elif outcome == "failed":
                failed.update(ids)
        return {"passed": sorted(passed - failed), "failed": sorted(failed), "tests": tests}

    def _check_ids(self) -> list[str]:
        """One message per unknown marker ID; none when no ledger folder is available."""
        folder = Path(self.ledger_dir) if self.ledger_dir else default_ledger_dir()
        if folder is None:
            self.unchecked = True
            return []
        try:
            ledgers = load_ledgers(folder)
        except DataFileError as exc:
            raise pytest.UsageError(f"rule ledger: {exc}") from None
        errors = []
        for nodeid, ids in self.rules.items():
            for item_id in ids:
                if item_id not in ledgers:
                    close = ", ".join(ledgers.closest(item_id)) or "none"
                    errors.append(f"{nodeid}: unknown rule ID {item_id!r} (closest known: {close})")
        return errors
