"""Caches: what was worked out for an object, found by the object's identity (for values that are costly to
hash or compare, and immutable by convention: a state's stacks, an action, a ruleset), a bounded mapping
that keeps the most recently used entries, and a bounded table of values worked out per key."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

V = TypeVar("V")


class ByIdentity(Generic[V]):
    """Values per object, by `id`; each entry keeps its object alive, so the id is not reused while it is kept.
    Everything is dropped once `size` entries are kept."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: dict[int, tuple[object, V]] = {}

    def get(self, obj: object) -> V | None:
        known = self._entries.get(id(obj))
        return known[1] if known is not None and known[0] is obj else None

    def put(self, obj: object, value: V) -> V:
        if len(self._entries) >= self.size:
            self._entries.clear()
        self._entries[id(obj)] = (obj, value)
        return value

    def __len__(self) -> int:
        return len(self._entries)


K = TypeVar("K")


class Recent(Generic[K, V]):
    """A bounded mapping that drops the least recently used entry past `size` (for caches whose entries are
    asked again after many others: one per game a server serves in turn)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> V:
        self._entries[key] = value
        self._entries.move_to_end(key)
        if len(self._entries) > self.size:
            self._entries.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()


class Worked(Generic[K, V]):
    """Values worked out per key, everything dropped once `size` entries are kept (no order kept: cheaper than
    `Recent`, for values asked again and again while they hold)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: dict[K, V] = {}

    def find(self, key: K, make: Callable[[], V]) -> V:
        """The value of `key`, made by `make` the first time."""
        found = self._entries.get(key)
        if found is None:
            if len(self._entries) >= self.size:
                self._entries.clear()
            found = self._entries[key] = make()
        return found

    def __len__(self) -> int:
        return len(self._entries)
