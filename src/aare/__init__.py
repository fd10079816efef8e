"""aare: rules engine, exact battle calculator and online table for the Enhanced Axis & Allies rulesets."""

from __future__ import annotations

__version__ = "0.1.0"
