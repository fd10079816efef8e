"""The classic-2e ruleset as a PettingZoo environment (see aare.rl): `aare_classic_v0.env()`."""

from aare.rl.env import factory

env, raw_env = factory("classic-2e", "aare_classic_v0")
