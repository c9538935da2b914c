"""Files the commands write (game records, tables, plots, exports).

Each is checked before the work that fills it (a game, a run of games), so a path that
cannot be written costs nothing; a write that fails anyway (a full disk) is one clear
line naming the option and the file, not a traceback.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kriegsspiel.errors import UsageError


def check_output(
    path: str,
    option: str,
    suffixes: tuple[str, ...] = (),
    inputs: dict[str, str | None] | None = None,
) -> None:
    """Refuse ``path`` (given as ``option``) now if it could not be written later, or if
    writing it would destroy one of the command's ``inputs`` (what it is: its path)."""
    target = Path(path)
    for what, given in (inputs or {}).items():
        if given and target.exists() and Path(given).exists() and target.samefile(given):
            raise UsageError(
                f"{option} {path!r} is {what}; writing there would destroy it. "
                "Give another file name."
            )
    if target.is_dir():
        raise UsageError(f"{option} {path!r} is a folder; give a file name in it.")
    if suffixes and target.suffix.lower() not in suffixes:
        kinds = " or ".join(suffixes)
        raise UsageError(f"{option} writes a {kinds} file, not {path!r}.")
    if not target.parent.is_dir():
        raise UsageError(
            f"{option} {path!r}: there is no folder {str(target.parent)!r} to write it in."
        )


@contextmanager
def writing(path: str, option: str) -> Iterator[None]:
    """Turn a failure to write ``path`` into a :class:`UsageError` that names it."""
    try:
        yield
    except OSError as exc:
        raise UsageError(f"cannot write {option} {path}: {exc.strerror or exc}.") from exc


def check_copy(copy: str, source: Path, what: str) -> None:
    """Refuse ``--copy`` now unless it names a new YAML file, other than ``source`` (the
    ``what`` being copied: "list", "scenario"): a copy never overwrites anything."""
    check_output(copy, "--copy", (".yaml", ".yml"), {f"the {what} being copied": str(source)})
    if Path(copy).exists():
        raise UsageError(f"--copy {copy!r} is there already; give a new file name.")


def write_copy(source: Path, copy: str) -> None:
    """Copy ``source``'s text to ``copy`` (checked first with :func:`check_copy`)."""
    with writing(copy, "--copy"):
        Path(copy).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
