"""Players that choose actions from `Game.legal_actions`: the `Bot` protocol, a random bot, a pass bot."""

from aare.ai.bot import Bot, NoLegalAction
from aare.ai.pass_bot import PassBot
from aare.ai.random_bot import RandomBot

__all__ = ["Bot", "NoLegalAction", "PassBot", "RandomBot", "make_bot"]


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name: `random` (seeded) or `pass`."""
    if name == "random":
        return RandomBot(seed)
    if name == "pass":
        return PassBot()
    raise ValueError(f"unknown bot {name!r} (known: random, pass)")
