"""The error of an environment used after its ``close()``."""

from __future__ import annotations

from gymnasium.error import ClosedEnvironmentError


class EnvironmentClosedError(ClosedEnvironmentError, RuntimeError):
    """An environment used after ``close()``: Gymnasium's ClosedEnvironmentError (as its
    vector environments raise), and a RuntimeError, as using one before ``reset()`` is."""

    def __init__(self, asked: str) -> None:
        super().__init__(
            f"{asked} was asked of a closed environment (close() let go of its game): "
            "make a new one."
        )
