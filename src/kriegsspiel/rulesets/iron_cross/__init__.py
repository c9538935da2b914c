"""Iron Cross (Great Escape Games, 2015): rules, data and odds from sheet 003."""

from __future__ import annotations

from kriegsspiel.rulesets.iron_cross.data import IronCrossData, load_data

__all__ = ["IronCrossData", "load_data"]
