"""The aa50e-1942 ruleset as a PettingZoo environment (see aare.rl): `aare_aa50e_1942_v0.env()`."""

from aare.rl.env import factory

env, raw_env = factory("aa50e-1942", "aare_aa50e_1942_v0")
