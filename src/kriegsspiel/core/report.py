"""The answer to an odds question: numbers, distributions and the reasoning behind them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from kriegsspiel.core.dice import Dist
from kriegsspiel.errors import names_any, told_as


@dataclass(frozen=True, slots=True)
class Reason:
    """One line of a playsheet-style explanation: 'needs 5+' because 'base 3+, long range -1'.

    A ``because`` that names the caller's parameters (:func:`~kriegsspiel.errors.named`:
    "give start_inches") reads in a Python caller's words; :meth:`told_as` tells it with
    a command's options ("give --from"), as a refusal is told."""

    topic: str
    result: str
    because: str = ""
    # the because as written, its parameters marked to be told each caller's way ("": it
    # names none); set from a because that names one (dataclasses.replace keeps it)
    _written: str = field(default="", repr=False, compare=False, kw_only=True)

    def __post_init__(self) -> None:
        if names_any(self.because):
            object.__setattr__(self, "_written", self.because)
            object.__setattr__(self, "because", told_as(self.because, {}))

    def told_as(self, options: Mapping[str, str]) -> Reason:
        """This reason with the parameters it names told as their options in ``options``
        (parameter -> option, e.g. "start_inches" -> "--from")."""
        if not self._written:
            return self
        return Reason(self.topic, self.result, told_as(self._written, options))


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
    # a probability's words where its key alone would mislead ("worst result: Rattled");
    # in the JSON under "labels"
    labels: dict[str, str] = field(default_factory=dict)
    # how to read a part of the answer, told with it: "chances" (the probabilities) or a
    # distribution's name; in the JSON under "notes", in the tables as their caption
    notes: dict[str, str] = field(default_factory=dict)
    # a designer's rules file the answer is by (house rules), and a digest of what it says
    rules_file: str | None = None
    rules_digest: str | None = None

    def told_as(self, options: Mapping[str, str]) -> OddsReport:
        """The report with its reasons' parameters told as the options in ``options``
        (parameter -> option), as a command tells them: :meth:`Reason.told_as`."""
        return replace(self, reasons=tuple(r.told_as(options) for r in self.reasons))

    @property
    def heading(self) -> str:
        return self.title or self.question

    @property
    def rules(self) -> str:
        """The rules the answer is by: the ruleset, and the rules file if there is one, with
        a short digest of what it says (as the results store lists house rules)."""
        if self.rules_file is None:
            return self.ruleset
        digest = f" ({self.rules_digest})" if self.rules_digest else ""
        return f"{self.ruleset}, house rules from rules file {self.rules_file}{digest}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "question": self.question,
            "title": self.heading,
        }
        if self.rules_file is not None:
            out["rules_file"] = self.rules_file
            out["rules_digest"] = self.rules_digest
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
        if self.labels:
            out["labels"] = dict(self.labels)
        if self.notes:
            out["notes"] = dict(self.notes)
        out["reasoning"] = [
            {"topic": r.topic, "result": r.result, "because": r.because} for r in self.reasons
        ]
        return out
