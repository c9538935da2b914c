"""Checks of the values a Python caller gives the public functions, made at their edge.

A wrong-typed value (a string for True or False, a float for a whole number, None) is
refused with a one-line :class:`UsageTypeError` (a :class:`UsageError` and a TypeError, as
Python's own checks raise for one) naming the parameter, the value and what would be
right, before it reaches the rules, whose per-shot code trusts what it is given. A value
of the right type but out of range is the caller's to refuse, with a UsageError (a
ValueError). Each check takes the refusal's own words (``refusal``) where its caller has
better ones than the plain "must be a number".
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeGuard, TypeVar

from kriegsspiel.core.seeds import MAX_SEED
from kriegsspiel.errors import (
    ParameterError,
    ParameterTypeError,
    UsageError,
    UsageTypeError,
    named,
)

T = TypeVar("T")


def yes_no(name: str, value: object, refusal: str | None = None) -> bool:
    """``value`` if it is True or False (a NumPy bool too), else refused: "no" is not False."""
    if isinstance(value, bool) or _numpy_bool(value):
        return bool(value)
    raise UsageTypeError(refusal or f"{name} is True or False, not {value!r}")


def whole(name: str, value: object, refusal: str | None = None) -> int:
    """``value`` if it is a whole number (a NumPy integer too; not True or 2.0), as an int.
    Its range is left to the caller, whose refusal says what the rules allow."""
    if not _is_whole(value):
        raise UsageTypeError(refusal or f"{name} must be a whole number, not {value!r}")
    return int(value)


def seed(value: object, name: str = "seed", most: int = MAX_SEED) -> int:
    """A seed (a game's, a run's, a player's): a whole number 0 to ``most`` (by default
    ``MAX_SEED``, 2**63 - 1, as ``kriegsspiel play --seed`` and ``evaluate`` take it; a
    NumPy integer too), as an int. Every seed is refused in these words, naming the
    parameter ``name`` as its caller gives it (:func:`~kriegsspiel.errors.named`)."""
    wanted = f"{named(name)} must be a whole number 0 to {most}, not {value!r}."
    if not _is_whole(value):
        raise ParameterTypeError(wanted)
    checked = int(value)  # (the record writes Python's int)
    if not 0 <= checked <= most:
        raise ParameterError(wanted)
    return checked


def _is_whole(value: object) -> TypeGuard[numbers.Integral]:
    """Is ``value`` a whole number (a NumPy integer too; not True, not 2.0)?"""
    integral = isinstance(value, numbers.Integral)
    return integral and not isinstance(value, bool) and not _numpy_bool(value)


def optional_whole(name: str, value: object) -> int | None:
    """None, or a whole number (:func:`whole`)."""
    return None if value is None else whole(name, value)


def number(name: str, value: object, refusal: str | None = None) -> float:
    """``value`` if it is a number (whole or not; not True), as a float. Its range, and
    NaN or infinity, are left to the caller, whose refusal says what the rules allow."""
    if isinstance(value, bool) or _numpy_bool(value) or not isinstance(value, numbers.Real):
        raise UsageTypeError(refusal or f"{name} must be a number, not {value!r}")
    return float(value)


def text(name: str, value: object, refusal: str | None = None) -> str:
    """``value`` if it is a str."""
    if not isinstance(value, str):
        raise UsageTypeError(refusal or f"{name} must be text (a str), not {value!r}")
    return value


def one_of(name: str, value: object, choices: tuple[str | None, ...]) -> str | None:
    """``value`` if it is one of ``choices`` (names, and None where it is one): refused
    with a UsageTypeError if it is not even a str (or None), else a UsageError."""
    named = isinstance(value, str) or (value is None and None in choices)
    if named and value in choices:
        return value
    said = [repr(c) if c is None else str(c) for c in choices]
    listed = ", ".join(said[:-1]) + f" or {said[-1]}" if len(said) > 1 else said[0]
    refusal = f"{name} is {listed}, not {value!r}"
    raise (UsageError if named else UsageTypeError)(refusal)


def optional_text(name: str, value: object) -> str | None:
    """None, or text (:func:`text`)."""
    return None if value is None else text(name, value)


def names(name: str, value: object) -> tuple[str, ...]:
    """``value`` if it is a list (or tuple) of names, each a str; a bare str is refused
    (it is a sequence too: of one-letter names)."""
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise UsageTypeError(f"{name} is a list of names, e.g. ['rifle'], not {value!r}")
    for item in value:
        if not isinstance(item, str):
            raise UsageTypeError(f"{name} is a list of names (each a str), not {value!r}")
    return tuple(value)


def path(name: str, value: object, refusal: str | None = None) -> Path:
    """``value`` if it is a file's path (a str or a pathlib.Path), as a Path."""
    if not isinstance(value, str | Path):
        raise UsageTypeError(
            refusal or f"{name} is a file's path (a str or a pathlib.Path), not {value!r}"
        )
    return Path(value)


def optional_file(name: str, value: object, wanted: str) -> str | None:
    """None, or a file's path (a str or a pathlib.Path) as the str it is given as (a
    Path's own); anything else refused, naming ``name`` and what it is (``wanted``, e.g.
    "the path of your rules file, or None for the shipped rules")."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Path):
        return str(value)
    raise UsageTypeError(
        f"{name} is a file's path (a str or a pathlib.Path): {wanted}; not {value!r}"
    )


def instance(name: str, value: object, kind: type[T], wanted: str) -> T:
    """``value`` if it is a ``kind``; else refused, ``wanted`` saying what one is and how
    to have one."""
    if not isinstance(value, kind):
        raise UsageTypeError(f"{name} is {wanted}, not {value!r}")
    return value


def fields(name: str, value: object, kind: type) -> None:
    """``value`` must be a ``kind`` (a dataclass) whose fields each hold a value of its
    annotated type (bool, int, float, str, or any of them or None), each named
    ``name.field`` when refused (``name`` "": by its own name, a parameter's)."""
    if not isinstance(value, kind):
        raise UsageTypeError(f"{name} must be a {kind.__name__}, not {value!r}")
    for field in dataclasses.fields(kind):
        said = f"{name}.{field.name}" if name else field.name
        _CHECKS[_annotation(field.type)](said, getattr(value, field.name))


def _annotation(annotation: Any) -> str:
    """A field's type as its check's key: "int", "int | None", ... (an alias of Literal
    strings, such as Cover, is text)."""
    said = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return said if said in _CHECKS else "str"


def _numpy_bool(value: object) -> bool:
    return type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_")


_CHECKS: dict[str, Callable[[str, object], object]] = {
    "bool": yes_no,
    "int": whole,
    "int | None": optional_whole,
    "float": number,
    "str": text,
    "str | None": optional_text,
}
