"""Answers the engine remembers during play, each memo capped.

A :class:`BoundedMemo` is a dict (read as one, at a dict's own speed: ``get``, ``in``,
``[]``, on the AI's hot paths) whose entries are written by :meth:`BoundedMemo.keep`,
which empties it first when it is full: an answer worked out again is the same answer, so
emptying changes nothing but time, and a long run's memory levels off. That cap is what
keeps a long-running command (the play aid's server, a sweep) in bounds: none of them
empties the memos, nor needs to. :func:`memos` and :func:`clear_all` list and empty every
memo made, for tests/test_memory_bounds.py (which checks every memo is capped, and that a
game played again after :func:`clear_all` plays the same). (Functions remember with
``functools.lru_cache`` instead, each with its own maxsize; that test checks them too.)
"""

from __future__ import annotations

import weakref
from typing import Final, TypeVar

K = TypeVar("K")
V = TypeVar("V")

MEMO_LIMIT: Final[int] = 4_000  # the entries a memo keeps, unless it says otherwise

# every memo made, while it lasts (a test's own is forgotten with it), by its id
_MEMOS: weakref.WeakValueDictionary[int, BoundedMemo[object, object]]
_MEMOS = weakref.WeakValueDictionary()


class BoundedMemo(dict[K, V]):
    """Remembered answers (``name``: what they are), at most ``limit`` of them: read as a
    dict, written by :meth:`keep`."""

    __slots__ = ("__weakref__", "limit", "name")

    def __init__(self, name: str, limit: int = MEMO_LIMIT) -> None:
        super().__init__()
        self.name, self.limit = name, limit
        _MEMOS[id(self)] = self  # type: ignore[assignment]  # (any memo, whatever it keeps)

    def keep(self, key: K, value: V) -> V:
        """Remember ``value`` as the answer for ``key`` (emptied first if full); ``value``."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value

    def __repr__(self) -> str:
        return f"BoundedMemo({self.name!r}: {len(self)} of {self.limit})"


def memos() -> list[BoundedMemo[object, object]]:
    """Every memo there is, by name."""
    return sorted(_MEMOS.values(), key=lambda memo: memo.name)


def clear_all() -> None:
    """Forget every answer every memo remembers (the answers to come stay the same): for
    tests; no command needs it, as each memo is capped."""
    for memo in list(_MEMOS.values()):
        memo.clear()
