"""Players that choose actions from `Game.legal_actions`: the `Bot` protocol and the bots by name.

A bot is registered with `register_bot(name, factory)`; the factory takes the bot's seed and, for bots that
search, a time budget in seconds per power-turn (`budget`) or the same counted in work (`work`, reproducible).
Every surface that offers bots (self-play, tournaments, `aare bot`) finds them here by name.
"""

from collections.abc import Callable

from aare.ai.bot import Bot, NoLegalAction
from aare.ai.greedy import GreedyBot
from aare.ai.pass_bot import PassBot
from aare.ai.planner import PlannerBot
from aare.ai.prolike import ProlikeBot
from aare.ai.random_bot import RandomBot

__all__ = ["Bot", "GreedyBot", "NoLegalAction", "PassBot", "PlannerBot", "ProlikeBot", "RandomBot", "bot_names",
           "make_bot", "register_bot", "unregister_bot"]

Factory = Callable[[int, float | None, int | None], Bot]

_BOTS: dict[str, Factory] = {
    "random": lambda seed, budget, work: RandomBot(seed),
    "pass": lambda seed, budget, work: PassBot(),
    "greedy": lambda seed, budget, work: GreedyBot(seed),
    "prolike": lambda seed, budget, work: ProlikeBot(seed),
    "planner": lambda seed, budget, work: PlannerBot(seed, budget, work),
}


def register_bot(name: str, factory: Factory) -> None:
    """Offer a bot by `name`: `factory(seed, budget, work)` makes one."""
    _BOTS[name] = factory


def unregister_bot(name: str) -> None:
    """Withdraw the bot offered as `name`."""
    _BOTS.pop(name, None)


def bot_names() -> list[str]:
    """The names of the bots on offer."""
    return list(_BOTS)


def make_bot(name: str, seed: int = 0, budget: float | None = None, work: int | None = None) -> Bot:
    """A bot by name (`bot_names()`), seeded; `budget` / `work` bound a searching bot's effort per power-turn."""
    factory = _BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(_BOTS)})")
    return factory(seed, budget, work)
