"""Movement: paths, move checks, transports and aircraft landing, shared by the combat-move and
non-combat-move phases; `battles.pending_battles` reads the battles a combat move set up."""
