"""Axis & Allies Classic (Milton Bradley, 2nd edition, 1986): data only so far (the board and its unit
catalogue under `data/`); no family or ruleset is registered yet."""
