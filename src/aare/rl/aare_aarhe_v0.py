"""The aarhe ruleset as a PettingZoo environment (see aare.rl): `aare_aarhe_v0.env()`."""

from aare.rl.env import factory

env, raw_env = factory("aarhe", "aare_aarhe_v0")
