"""The planner's effort per power-turn: counted work (reproducible) and seconds (a cap on a busy machine)."""

from __future__ import annotations

import time

DEFAULT_WORK = 600  # exact-odds evaluations per power-turn when no bound is given


class Budget:
    """Counts the planner's work (one unit per exact-odds evaluation) within one power-turn.

    `work` bounds the count, so the same seed gives the same game on any machine; `seconds` bounds the
    wall-clock time as well (a search may then stop at a different point). Without either, `DEFAULT_WORK`."""

    def __init__(self, seconds: float | None = None, work: int | None = None) -> None:
        self.seconds = seconds
        self.work = work if work is not None else (None if seconds is not None else DEFAULT_WORK)
        self.used = 0
        self.started = time.monotonic()
        self.turn: tuple[int, str, str] | None = None

    def start_turn(self, turn: tuple[int, str, str]) -> None:
        """Reset the counts when a new power-turn (round, nation, seat) begins."""
        if turn != self.turn:
            self.turn = turn
            self.used = 0
            self.started = time.monotonic()

    def spend(self, units: int = 1) -> None:
        self.used += units

    def left(self) -> bool:
        """Whether the search may go on."""
        if self.work is not None and self.used >= self.work:
            return False
        return self.seconds is None or time.monotonic() - self.started < self.seconds * 0.8
