"""The turn: phases as a table the ruleset supplies."""
