"""The pytest plugin: rule markers, their check against the ledgers and `--rule-report`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aare.ledger import pytest_plugin


@pytest.fixture
def run(pytester: pytest.Pytester, ledger_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run pytest on `source` against the small ledger folder; return (result, report or None)."""
    monkeypatch.setenv("AARE_LEDGER_DIR", str(ledger_dir))

    def _run(source: str, *args: str) -> tuple[pytest.RunResult, dict[str, Any] | None]:
        pytester.makepyfile(test_tagged=source)
        result = pytester.runpytest("--strict-markers", "--rule-report", "out/rules.json", *args)
        path = pytester.path / "out" / "rules.json"
        return result, json.loads(path.read_text()) if path.exists() else None

    return _run


def test_passing_and_failing_tests(run: Any) -> None:
    result, report = run(
        """
        import pytest

        @pytest.mark.rule("AAA-ONE-first")
        def test_pass():
            pass

        @pytest.mark.rule("AAA-ONE-second")
        def test_fail():
            assert False

        @pytest.mark.rule("AAA-TWO-third")
        @pytest.mark.rule("BBB-X-alpha", "AAA-ONE-first")
        def test_stacked():
            pass

        @pytest.mark.rule("BBB-X-alpha")
        def test_alpha_broken():
            assert False

        def test_untagged():
            pass
        """
    )
    result.assert_outcomes(passed=3, failed=2)
    assert report is not None
    assert report["passed"] == ["AAA-ONE-first", "AAA-TWO-third"]
    assert report["failed"] == ["AAA-ONE-second", "BBB-X-alpha"]
    assert report["tests"] == {
        "test_tagged.py::test_pass": {"outcome": "passed", "rules": ["AAA-ONE-first"]},
        "test_tagged.py::test_fail": {"outcome": "failed", "rules": ["AAA-ONE-second"]},
        "test_tagged.py::test_stacked": {
            "outcome": "passed",
            "rules": ["AAA-ONE-first", "AAA-TWO-third", "BBB-X-alpha"],
        },
        "test_tagged.py::test_alpha_broken": {"outcome": "failed", "rules": ["BBB-X-alpha"]},
    }
    result.stdout.fnmatch_lines(["aare-rules: rule report written to *rules.json"])


def test_skipped_tests_prove_nothing(run: Any) -> None:
    result, report = run(
        """
        import pytest

        @pytest.mark.skip(reason="later")
        @pytest.mark.rule("AAA-ONE-first")
        def test_marked_skip():
            pass

        @pytest.mark.rule("AAA-ONE-second")
        def test_skip_inside():
            pytest.skip("not yet")

        @pytest.mark.xfail(reason="known bug")
        @pytest.mark.rule("AAA-TWO-third")
        def test_xfail():
            assert False

        @pytest.mark.xfail(reason="flaky")
        @pytest.mark.rule("CCC-Z-lonely")
        def test_xpass():
            pass

        @pytest.mark.skip(reason="later")
        @pytest.mark.rule("BBB-X-alpha")
        def test_skipped_alpha():
            pass

        @pytest.mark.rule("BBB-X-alpha")
        def test_alpha():
            pass
        """
    )
    assert result.ret == 0
    assert report is not None
    assert report["passed"] == ["BBB-X-alpha"]
    assert report["failed"] == []
    outcomes = {nodeid.split("::")[1]: t["outcome"] for nodeid, t in report["tests"].items()}
    assert outcomes == {
        "test_marked_skip": "skipped",
        "test_skip_inside": "skipped",
        "test_xfail": "skipped",
        "test_xpass": "skipped",
        "test_skipped_alpha": "skipped",
        "test_alpha": "passed",
    }


def test_setup_and_teardown_failures_count_as_failed(run: Any) -> None:
    result, report = run(
        """
        import pytest

        @pytest.fixture
        def broken_setup():
            raise RuntimeError("no board")

        @pytest.fixture
        def broken_teardown():
            yield
            raise RuntimeError("cleanup failed")

        @pytest.mark.rule("AAA-ONE-first")
        def test_setup_error(broken_setup):
            pass

        @pytest.mark.rule("AAA-ONE-second")
        def test_teardown_error(broken_teardown):
            pass
        """
    )
    result.assert_outcomes(passed=1, errors=2)
    assert report is not None
    assert report["passed"] == []
    assert report["failed"] == ["AAA-ONE-first", "AAA-ONE-second"]


def test_unknown_id_fails_the_run(run: Any) -> None:
    result, _ = run(
        """
        import pytest

        @pytest.mark.rule("AAA-ONE-first", "AAA-ONE-frist")
        def test_typo():
            pass
        """
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*test_tagged.py::test_typo: unknown rule ID 'AAA-ONE-frist' (closest known: AAA-ONE-first*"]
    )


def test_excluded_items_are_known(run: Any) -> None:
    result, report = run(
        """
        import pytest

        @pytest.mark.rule("AAA-TWO-gone")
        def test_gone():
            pass
        """
    )
    assert result.ret == 0
    assert report is not None and report["passed"] == ["AAA-TWO-gone"]


@pytest.mark.parametrize("marker", ["@pytest.mark.rule", "@pytest.mark.rule()", "@pytest.mark.rule(42)"])
def test_marker_without_string_ids_fails(run: Any, marker: str) -> None:
    result, _ = run(
        f"""
        import pytest

        {marker}
        def test_bad():
            pass
        """
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*test_tagged.py::test_bad: rule marker needs one or more ID strings*"])


def test_malformed_ledger_fails_the_run(run: Any, ledger_dir: Path) -> None:
    (ledger_dir / "z.yaml").write_text("- {id: ZZZ-BAD}\n", encoding="utf-8")
    result, _ = run(
        """
        import pytest

        @pytest.mark.rule("AAA-ONE-first")
        def test_ok():
            pass
        """
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*z.yaml: [[]0[]].id: expected an ID like LEDGER-AREA-slug*"])


def test_rule_ledger_option_overrides_the_environment(run: Any, ledger_dir: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "o.yaml").write_text("- {id: OOO-A-only, title: Only, phase: [any]}\n", encoding="utf-8")
    result, report = run(
        """
        import pytest

        @pytest.mark.rule("OOO-A-only")
        def test_other():
            pass
        """,
        "--rule-ledger",
        str(other),
    )
    assert result.ret == 0
    assert report is not None and report["passed"] == ["OOO-A-only"]


def test_no_ledger_folder_skips_the_check_with_a_warning(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pytest_plugin, "default_ledger_dir", lambda: None)
    result, report = run(
        """
        import pytest

        @pytest.mark.rule("NOT-IN-any-ledger")
        def test_unchecked():
            pass
        """
    )
    assert result.ret == 0
    result.stdout.fnmatch_lines(["aare-rules: no rule ledger folder found*rule marker IDs were not checked"])
    assert report is not None and report["passed"] == ["NOT-IN-any-ledger"]
