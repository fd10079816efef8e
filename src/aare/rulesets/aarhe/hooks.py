"""Helpers the AARHE rule modules share for plugging into the core's hooks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aare.phases.base import PhaseExtension


def by_phase(*extensions: PhaseExtension) -> Callable[..., list[PhaseExtension]]:
    """A `phase_actions` hook adding each of `extensions` to the phase it is named for, in the order given."""

    def hook(found: list[PhaseExtension], phase: str, **_: Any) -> list[PhaseExtension]:
        return [*found, *(e for e in extensions if e.name == phase)]

    return hook
