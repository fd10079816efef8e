"""Environments for reinforcement-learning research over the engine (the optional `rl` extra: PettingZoo and
Gymnasium; OpenSpiel for `aare.rl.openspiel_game`). One versioned module per ruleset, imported as PettingZoo's own
environments are: `from aare.rl import aare_lhtr_v0; env = aare_lhtr_v0.env()`. The version changes when the
rules or the observation change. See docs/rl.md."""

ENVIRONMENTS = {
    "aare_lhtr_v0": "lhtr-1.3",
    "aare_aare5_v0": "aare-5.0",
    "aare_aarhe_v0": "aarhe",
    "aare_aa50_1941_v0": "aa50-1941",
    "aare_aa50_1942_v0": "aa50-1942",
    "aare_aa50e_1941_v0": "aa50e-1941",
    "aare_aa50e_1942_v0": "aa50e-1942",
    "aare_classic_v0": "classic-2e",
    "aare_realism98_v0": "realism-98",
}
