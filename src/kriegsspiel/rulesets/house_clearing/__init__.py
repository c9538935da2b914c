"""House Clearing ("A Quick and Dirty Set of WWII House Clearing Rules"), sheet 004."""

from __future__ import annotations

from kriegsspiel.rulesets.house_clearing.data import HouseClearingData, load_data

__all__ = ["HouseClearingData", "load_data"]
