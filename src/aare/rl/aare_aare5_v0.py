"""The aare-5.0 ruleset as a PettingZoo environment (see aare.rl): `aare_aare5_v0.env()`."""

from aare.rl.env import factory

env, raw_env = factory("aare-5.0", "aare_aare5_v0")
