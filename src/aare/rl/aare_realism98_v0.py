"""The realism-98 ruleset as a PettingZoo environment (see aare.rl): `aare_realism98_v0.env()`."""

from aare.rl.env import factory

env, raw_env = factory("realism-98", "aare_realism98_v0")
