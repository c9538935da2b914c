"""Which code plays a game: the package version and a hash of its source and data.

A stored game is reused only by the same code (any change to a rule's source or data may
change a game), and a worker whose code differs from its run's is refused, so its games are
never stored as the run's.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from pathlib import Path

from kriegsspiel import __version__


@cache
def code_version() -> str:
    """The package version plus a hash of its source and data: results of other code differ."""
    digest = hashlib.sha256()
    root = resources.files("kriegsspiel")
    files = sorted(
        (p for p in Path(str(root)).rglob("*") if p.suffix in (".py", ".yaml") and p.is_file()),
        key=lambda p: p.relative_to(str(root)).as_posix(),
    )
    for path in files:
        digest.update(path.relative_to(str(root)).as_posix().encode())
        digest.update(path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:12]}"
