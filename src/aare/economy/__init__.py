"""The economy: purchase pools, production, income, capture and plunder, economic damage and damage on
complexes (and their repair), research, bids.

Functions here read a state and return events; phase handlers and (later) conduct-combat emit them.
"""

from aare.economy.capture import capture_territory_events
from aare.economy.damage import bombing_damage_events, damage_cap_remaining, economic_damage_events

__all__ = ["bombing_damage_events", "capture_territory_events", "damage_cap_remaining", "economic_damage_events"]
