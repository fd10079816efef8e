"""The economy: purchase pools, production, income, capture and plunder, economic damage, research, bids.

Functions here read a state and return events; phase handlers and (later) conduct-combat emit them.
"""

from aare.economy.capture import capture_territory_events
from aare.economy.damage import damage_cap_remaining, economic_damage_events

__all__ = ["capture_territory_events", "damage_cap_remaining", "economic_damage_events"]
