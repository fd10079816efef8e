"""The aa50-1942 ruleset as a PettingZoo environment (see aare.rl): `aare_aa50_1942_v0.env()`."""

from aare.rl.env import factory

env, raw_env = factory("aa50-1942", "aare_aa50_1942_v0")
