"""Ruleset families, one package each: what a family adds to the core (data, rule modules, phases, decisions,
docs). The core and the surfaces never import these packages; they find them through the registry
(`aare.rules.registry`, entry point group `aare.rulesets`)."""
