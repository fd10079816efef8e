"""Dice sources: seeded dice are reproducible and fair-looking; scripted dice run out loudly."""

from __future__ import annotations

from collections import Counter

import pytest

from aare.dice import DiceExhausted, RecordingDice, ScriptedDice, SeededDice


@pytest.mark.rule("LHTR-TURN-d6-hit-rule")
def test_seeded_dice_are_reproducible_six_sided() -> None:
    a, b = SeededDice(7), SeededDice(7)
    rolls = a.roll(600)
    assert rolls == b.roll(600)
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert all(60 < n < 140 for n in Counter(rolls).values())
    resumed = SeededDice(7, counter=a.counter)
    assert resumed.roll(5) == a.roll(5)


def test_scripted_dice() -> None:
    dice = ScriptedDice([1, 6, 3])
    assert dice.roll(2) == (1, 6)
    assert dice.remaining == 1
    with pytest.raises(DiceExhausted):
        dice.roll(2)
    with pytest.raises(DiceExhausted):
        ScriptedDice([7]).roll(1)


def test_recording_dice_keeps_every_roll() -> None:
    rec = RecordingDice(ScriptedDice([2, 4, 5]))
    rec.roll(1)
    rec.roll(2)
    assert rec.rolls == [(2,), (4, 5)]
