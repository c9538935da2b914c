"""The answer to an odds question: numbers, distributions and the reasoning behind them."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from kriegsspiel.core.dice import Dist


@dataclass(frozen=True, slots=True)
class Reason:
    """One line of a playsheet-style explanation: 'needs 5+' because 'base 3+, long range -1'."""

    topic: str
    result: str
    because: str = ""


@dataclass(frozen=True, slots=True)
class OddsReport:
    """Everything an odds query found, ready for text or JSON output."""

    ruleset: str
    question: str  # the odds command that asks it: "shoot", "order-test", "activation"...
    reasons: tuple[Reason, ...]
    probabilities: dict[str, Fraction] = field(default_factory=dict)
    distributions: dict[str, Dist[int]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    title: str = ""  # the question in words, with its numbers (the question's name if none)
    # a probability's words where its key alone would mislead ("worst result: Rattled")
    labels: dict[str, str] = field(default_factory=dict)
    # how to read a part of the answer, told with it: "chances" (the probabilities) or a
    # distribution's name; in the JSON under "notes", in the tables as their caption
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def heading(self) -> str:
        return self.title or self.question

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "question": self.question,
            "title": self.heading,
        }
        for key, p in self.probabilities.items():
            out[key] = float(p)
        out["exact"] = {key: str(p) for key, p in self.probabilities.items()}
        for key, dist in self.distributions.items():
            values = dist.as_list()
            out[key] = {
                "mean": float(dist.mean()),
                "distribution": [float(p) for p in values],
                "exact": [str(p) for p in values],
            }
        out.update(self.details)
        if self.notes:
            out["notes"] = dict(self.notes)
        out["reasoning"] = [
            {"topic": r.topic, "result": r.result, "because": r.because} for r in self.reasons
        ]
        return out
