"""Files the commands write (game records, tables, plots, exports).

Each is checked before the work that fills it (a game, a run of games), so a path that
cannot be written costs nothing; a write that fails anyway (a full disk) is one clear
line naming the option and the file, not a traceback, and leaves no file behind (each
is written under a temporary name and renamed into place once whole).
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from kriegsspiel.errors import UsageError


def check_output(
    path: str,
    option: str,
    suffixes: tuple[str, ...] = (),
    inputs: dict[str, str | None] | None = None,
    *,
    written: bool = True,
) -> None:
    """Refuse ``path`` (given as ``option``) now if it could not be written later, or if
    writing it would destroy one of the command's ``inputs`` (what it is: its path).

    ``written``: False for a file that may be only read where it cannot be written (a
    results store), whose folder and permissions are then not asked about."""
    if not path.strip():  # (Path("") is the current folder: not what was meant)
        kinds = " or ".join(suffixes)
        named = f"a {kinds} file's name" if suffixes else "a file name"
        raise UsageError(f"{option} was given an empty name ({path!r}); give {named}.")
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
    if written:
        _check_permission(target, path, option)


def check_replacing(path: str, option: str, kind: str, is_kind: Callable[[bytes], bool]) -> bool:
    """True if ``path`` holds a file that writing it will replace. A command that writes
    one ``kind`` of file (a game record, a drawing) replaces only a file of that kind, told
    by its first bytes (``is_kind``): anything else there (a list, notes) is refused now,
    before the work, rather than lost."""
    target = Path(path)
    if not target.is_file():
        return False
    try:
        with target.open("rb") as file:
            start = file.read(1 << 20)  # (a record's header holds its lists: a few kB)
    except OSError:
        return True  # (unreadable: the permission check says what is wrong)
    if not is_kind(start):
        raise UsageError(
            f"{option} {path!r} is there already and is not {kind}{_looks_like(start)}; "
            "writing there would destroy it. Give another file name, or move it aside."
        )
    return True


def _looks_like(start: bytes) -> str:
    """What a file's first bytes plainly are, if kriegsspiel can tell (" (it looks like an
    army list)": :func:`.datafile.other_kind`); else nothing."""
    from kriegsspiel.core.datafile import other_kind

    kind = other_kind(start.decode("utf-8", errors="ignore"))
    return f" (it looks like {kind})" if kind else ""


def is_game_record(start: bytes) -> bool:
    """A record's first line is its header, naming the kriegsspiel that wrote it."""
    try:
        header = json.loads(start.split(b"\n", 1)[0])
    except ValueError:
        return False
    return isinstance(header, dict) and "kriegsspiel" in header and "seed" in header


SVG_KIND = "an SVG drawing kriegsspiel made"  # (what --svg replaces: see is_svg)


def drawn_by() -> str:
    """The mark every picture kriegsspiel writes carries near its start (a PNG's
    "Software", an SVG's creator or a comment): "kriegsspiel" and its version. Only a
    file so marked is replaced by another picture: a screenshot or a hand-made drawing
    of the same name is refused and kept."""
    from kriegsspiel import __version__

    return f"kriegsspiel {__version__}"


def svg_mark() -> str:
    """The comment that marks a table kriegsspiel drew (see :func:`drawn_by`)."""
    return f"<!-- Drawn by {drawn_by()} -->"


def is_svg(start: bytes) -> bool:
    """An SVG drawing kriegsspiel made: a table (its comment) or a plot (its creator, in
    matplotlib's metadata), whatever kriegsspiel's version."""
    return b"<svg" in start and (
        b"<!-- Drawn by kriegsspiel " in start or b"<dc:title>kriegsspiel " in start
    )


def is_png(start: bytes) -> bool:
    """A PNG plot kriegsspiel made: its signature, then its "Software" text."""
    return start.startswith(b"\x89PNG\r\n\x1a\n") and b"tEXtSoftware\x00kriegsspiel " in start


def is_picture(start: bytes) -> bool:
    """A PNG or an SVG picture kriegsspiel drew: what ``--plot`` replaces."""
    return is_png(start) or is_svg(start)


def is_export(start: bytes) -> bool:
    """An export of stored games: CSV under its header, or a JSON list of games (or none)."""
    text = start.lstrip()
    if text.startswith(b"matchup,title,"):
        return True
    if not text.startswith(b"["):
        return False
    rest = text[1:].lstrip()
    return rest.startswith(b"]") or rest.startswith(b'{"matchup":')


def _check_permission(target: Path, path: str, option: str) -> None:
    """Refuse ``target`` if this process may not write it: a file is written beside itself
    and renamed into place (see :func:`writing`), so its folder must take new files; a
    device (``/dev/null``) is written as it is, so it must take writes."""
    if target.exists() and not target.is_file():
        if not os.access(target, os.W_OK):
            raise UsageError(f"{option} {path!r} cannot be written (no permission).")
        return
    folder = target.resolve().parent
    refused = _refusal(folder)
    if refused:
        raise UsageError(
            f"{option} {path!r}: the folder {str(folder)!r} cannot be written in ({refused}); "
            "give a file in a folder you can write in."
        )
    if target.exists() and not os.access(target, os.W_OK):
        if not os.access(target, os.R_OK):  # (a file a command reads back too: a save)
            raise UsageError(
                f"{option} {path!r} can be neither read nor written (no permission); make "
                "it readable and writable, or give another file name."
            )
        raise UsageError(
            f"{option} {path!r} is read-only; make it writable or give another file name."
        )


def _refusal(folder: Path) -> str | None:
    """Why no file can be made in ``folder`` (None if one can): the permissions say so, or
    a file tried there was refused (what permissions do not tell: a file system like
    ``/sys`` that takes no new files, a read-only mount seen by root)."""
    if not os.access(folder, os.W_OK):
        return "no permission, or a read-only file system"
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"a file made there was refused: {exc.strerror or exc}"
    return None


def check_folder(folder: str, option: str, *, make: bool = False) -> None:
    """Refuse ``folder`` (given as ``option``, to write files into) now unless it is a
    folder this process may write in; ``make``: one not there yet, in a folder that is,
    is made (a missing parent is more likely a typo, and is refused)."""
    place = Path(folder)
    if make and not place.exists() and place.parent.is_dir():
        try:
            place.mkdir()
        except OSError as exc:
            raise UsageError(
                f"{option} {folder!r}: the folder could not be made ({exc.strerror or exc}); "
                "give a folder you can write in."
            ) from None
    if not place.is_dir():
        raise UsageError(f"{option} {folder!r} is not a folder; make it first.")
    refused = _refusal(place)
    if refused:
        raise UsageError(
            f"{option} {folder!r}: the folder cannot be written in ({refused}); "
            "give a folder you can write in."
        )


@contextmanager
def writing(path: str, option: str) -> Iterator[str]:
    """Write ``path`` (given as ``option``) whole or not at all: the block writes the file
    whose name it is given, made beside ``path`` and renamed over it once the block is done,
    or deleted if the block fails, so a full disk leaves no empty or partial file behind
    (nor a file that a rerun would take for its own). A failure to write is a
    :class:`UsageError` that names the option and the file. A device (``/dev/null``) is
    written as it is: it is given to the block itself."""
    target = Path(path)
    if target.exists() and not target.is_file():
        with _told(path, option):
            yield path
        return
    final = target.resolve()  # (through a link, the file it names is written)
    with _told(path, option):
        handle, temp = tempfile.mkstemp(
            dir=final.parent, prefix=f".{final.name}.", suffix=f".part{final.suffix}"
        )
        os.close(handle)
        try:
            yield temp
            os.chmod(temp, _mode(final))
            os.replace(temp, final)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise


@contextmanager
def _told(path: str, option: str) -> Iterator[None]:
    """Turn a failure to write ``path`` into a :class:`UsageError` that names it."""
    try:
        yield
    except OSError as exc:
        raise UsageError(f"cannot write {option} {path}: {exc.strerror or exc}.") from exc


def _mode(file: Path) -> int:
    """The permissions a file written over ``file`` gets: its own if it is there, else
    what a new file gets (read and write, less this process's umask), not the owner-only
    ones of a temporary file."""
    if file.exists():
        return stat.S_IMODE(file.stat().st_mode)
    umask = os.umask(0)  # (the only way to read it is to set it)
    os.umask(umask)
    return 0o666 & ~umask


def check_copy(copy: str, source: Path, what: str) -> None:
    """Refuse ``--copy`` now unless it names a new YAML file, other than ``source`` (the
    ``what`` being copied: "list", "scenario"): a copy never overwrites anything."""
    check_output(copy, "--copy", (".yaml", ".yml"), {f"the {what} being copied": str(source)})
    if Path(copy).exists():
        raise UsageError(f"--copy {copy!r} is there already; give a new file name.")


def write_copy(source: Path, copy: str) -> None:
    """Copy ``source``'s text to ``copy`` (checked first with :func:`check_copy`)."""
    write_text(copy, "--copy", source.read_text(encoding="utf-8"))


def write_text(path: str, option: str, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8) through :func:`writing`: whole or not at all."""
    with writing(path, option) as temp:
        Path(temp).write_text(text, encoding="utf-8")
