"""The lhtr-1.3 ruleset as a PettingZoo environment (see aare.rl): `aare_lhtr_v0.env()`."""

from aare.rl.env import factory

env, raw_env = factory("lhtr-1.3", "aare_lhtr_v0")
