"""The decisions of a Konflikt '47 or Bolt Action game: what a player (or chance) chooses.

An :class:`Action` is a plain value, read from and written to a game record as JSON; a
:class:`Pending` is an order paused for the other side's decision.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kriegsspiel.core.game import IllegalActionError
from kriegsspiel.core.names import facing_text

if TYPE_CHECKING:
    from kriegsspiel.rulesets.bolt_action.game.state import BoltActionGame

ORDERS = ("Fire", "Advance", "Run", "Ambush", "Rally", "Down")
KINDS = ("draw", "order", "react", "ambush", "retain", "friendly fire")
FIELDS = ("kind", "side", "unit", "order", "to", "target", "choice", "facing")
_NUMBERS = (float, int)  # a destination's coordinates' usual types


@dataclass(frozen=True, slots=True)
class Action:
    """A decision (or chance outcome). ``kind``: draw, order, react, ambush, retain, or
    friendly fire (the opponent's choice of the friend a FUBAR unit fires at: ``target``)."""

    kind: str
    side: int = -1
    unit: int = -1
    order: str = ""
    to: tuple[float, float] | None = None
    target: int | None = None
    # reactions: none/down/escape/stand and fire; an assault's mode; a support call; a
    # vehicle's Advance: "reverse" (table_rules.vehicle_drive)
    choice: str = ""
    facing: float | None = None  # a vehicle's heading at the end of its move (degrees)

    def describe(self, state: BoltActionGame | None = None) -> str:
        def name(uid: int | None) -> str:
            if state is not None and isinstance(uid, int) and 0 <= uid < len(state.units):
                return state.units[uid].name
            return f"unit {uid}" if state is not None else str(uid)

        if self.kind == "draw":
            return f"draw a die for side {self.side}"
        if self.kind == "order":
            bits = [f"{name(self.unit)}: {self.order}"]
            if self.to:
                bits.append(f"to ({self.to[0]:.1f}, {self.to[1]:.1f})")
            if self.target is not None:
                bits.append(f"at {name(self.target)}")
            if self.choice:
                bits.append(f"({self.choice})")
            if self.facing is not None:
                bits.append(facing_text(self.facing))
            return " ".join(bits)
        if self.kind == "friendly fire":
            return f"friendly fire at {name(self.target)}"
        return f"{self.kind} {self.choice}" + (
            f" at {name(self.target)}" if self.target is not None else ""
        )

    def to_json(self) -> dict[str, Any]:
        """The action as a JSON object: ``kind`` and each field not at its default (-1
        for side and unit, "" for order and choice, None for the rest: so a target or a
        facing of -1, which no legal action has, is kept, and refused when read back)."""
        return {
            k: v
            for k, v, left_out in (
                ("kind", self.kind, None),
                ("side", self.side, -1),
                ("unit", self.unit, -1),
                ("order", self.order, ""),
                # (numbers as floats, as a record's reader reads them back: a whole
                # number given is written as the float it is read as)
                ("to", [float(v) for v in self.to] if self.to else None, None),
                ("target", self.target, None),
                ("choice", self.choice, ""),
                ("facing", None if self.facing is None else float(self.facing), None),
            )
            if v is not None and v != left_out
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Action:
        """The action a JSON object gives (as :meth:`to_json` writes it): ``kind`` and any
        of the other fields; a field the object lacks takes its default. An object that
        is not one, lacks ``kind`` or names a field no action has is refused, naming it
        (a field's value is checked when the action is taken)."""
        if not isinstance(data, dict):
            raise IllegalActionError(
                f"an action in JSON is an object with a 'kind', not {type(data).__name__}"
            )
        if "kind" not in data:
            raise IllegalActionError(f"an action in JSON needs a 'kind' ({', '.join(KINDS)})")
        unknown = sorted(set(data) - set(FIELDS))
        if unknown:
            raise IllegalActionError(
                f"an action has no field {', '.join(map(repr, unknown))}; its fields are "
                f"{', '.join(FIELDS)}"
            )
        raw = data.get("to")  # a pair from JSON; anything else is left for validate to name
        to: Any = (raw[0], raw[1]) if isinstance(raw, list | tuple) and len(raw) == 2 else raw
        if isinstance(to, list):  # (a list cannot be kept in a hashable action)
            to = tuple(to)
        return Action(
            kind=data["kind"],
            side=data.get("side", -1),
            unit=data.get("unit", -1),
            order=data.get("order", ""),
            to=to,
            target=data.get("target"),
            choice=data.get("choice", ""),
            facing=data.get("facing"),
        )


@dataclass(slots=True)
class Pending:
    """An action paused for a side's decision (a reaction, ambush fire, keeping a die, or
    the target of a FUBAR unit's friendly fire, which its opponent chooses)."""

    kind: str  # "shot-reaction" | "assault-reaction" | "ambush" | "retain" | "friendly-fire"
    side: int  # who decides
    action: Action  # the paused order (to retain: the order the unit holds)
    target: int  # the unit reacting (the ambushed mover; the unit firing on its friends)
    ambushers: tuple[int, ...] = ()
    friends: tuple[int, ...] = ()  # friendly fire: the units it may be aimed at
    # an ambush: what goes on once it is over ("order": the mover's order, its Advance's
    # shot; "fight": the assault's fight, the target reacting with ``reaction``; "chase":
    # the assaulters follow the target that escaped; "shot": the shot at a recce vehicle
    # that escaped it is fired; "": nothing, as after a panic's Run)
    after: str = "order"
    reaction: str = ""


def check_types(action: Action) -> None:
    """An action's fields are of their kinds (as JSON or a learned policy may not give)."""
    to, target, facing = action.to, action.target, action.facing
    if (  # the usual action, passed at a glance (exact types: the checks below allow these)
        facing is None
        and type(action.side) is int
        and type(action.unit) is int
        and (target is None or type(target) is int)
        and (
            to is None
            or (
                type(to) is tuple
                and len(to) == 2
                and type(to[0]) in _NUMBERS
                and type(to[1]) in _NUMBERS
            )
        )
        and type(action.kind) is str
        and type(action.order) is str
        and type(action.choice) is str
    ):
        return

    def whole(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    for name in ("side", "unit"):
        if not whole(getattr(action, name)):
            raise IllegalActionError(
                f"an action's {name} is a whole number, not {getattr(action, name)!r}"
                + _python_hint(getattr(action, name))
            )
    if action.target is not None and not whole(action.target):
        raise IllegalActionError(
            f"an action's target is a unit's number, not {action.target!r}"
            + _python_hint(action.target)
        )
    to = action.to
    if to is not None and not (
        isinstance(to, tuple)
        and len(to) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in to)
    ):
        hint = _python_hint(*to) if isinstance(to, tuple) else ""
        raise IllegalActionError(
            f"an action's destination is a pair of numbers (x, y), not {to!r}{hint}"
        )
    if facing is not None and not (
        isinstance(facing, int | float) and not isinstance(facing, bool) and math.isfinite(facing)
    ):
        raise IllegalActionError(
            f"an action's facing is a number of degrees, not {facing!r}" + _python_hint(facing)
        )
    for name in ("kind", "order", "choice"):
        if not isinstance(getattr(action, name), str):
            raise IllegalActionError(f"an action's {name} is text, not {getattr(action, name)!r}")


def _python_hint(*values: object) -> str:
    """What to do with a NumPy number, which an action does not keep (a record writes
    Python's numbers): a hint for the refusal, or nothing."""
    if any(type(v).__module__ == "numpy" for v in values):
        return " (a NumPy number: give Python's, int(x) or float(x))"
    return ""
