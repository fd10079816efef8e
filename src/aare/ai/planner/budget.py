"""The planner's effort per power-turn: counted work (reproducible) and seconds of its own thinking (a cap)."""

from __future__ import annotations

import time

clock = time.process_time  # CPU time of the process the planner runs in
DEFAULT_SECONDS = 30.0  # seconds per power-turn when no bound is given (the "within a human's patience")


class Budget:
    """Counts the planner's work (one unit per exact-odds evaluation) within one power-turn.

    `work` bounds the count, so the same seed gives the same game on any machine; `seconds` bounds the CPU time of
    the process the planner runs in (`time.process_time`: other processes on a busy machine do not cut its search
    short, though it may take longer by the clock; a search may still stop at a different point than on another
    machine). Without either, `DEFAULT_SECONDS`."""

    def __init__(self, seconds: float | None = None, work: int | None = None) -> None:
        self.seconds = seconds if seconds is not None or work is not None else DEFAULT_SECONDS
        self.work = work
        self.used = 0
        self.started = clock()
        self.turn: tuple[int, str, str] | None = None
        self._seats: dict[str, tuple[int, float]] = {}  # seat -> (work used, seconds used) in this power's turn

    def start_turn(self, turn: tuple[int, str, str]) -> None:
        """Switch to the power-turn (round, nation, seat): a seat's counts run on through its turn, also when
        another seat answered a battle decision in between, and start afresh with the next power's turn."""
        if turn == self.turn:
            return
        now = clock()
        if self.turn is not None:
            if self.turn[:2] != turn[:2]:
                self._seats.clear()
            else:
                self._seats[self.turn[2]] = (self.used, now - self.started)
        self.turn = turn
        used, seconds = self._seats.get(turn[2], (0, 0.0))
        self.used = used
        self.started = now - seconds

    def spend(self, units: int = 1) -> None:
        self.used += units

    def left(self) -> bool:
        """Whether the search may go on."""
        if self.work is not None and self.used >= self.work:
            return False
        return self.seconds is None or clock() - self.started < self.seconds * 0.8
