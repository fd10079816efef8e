"""Built-in rule modules, one file per rule document section; importing this package registers them."""

from aare.rules.modules import aare_base, aare_combat, lhtr  # noqa: F401
