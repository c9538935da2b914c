"""The results store: one SQLite file (WAL mode), one row per finished game.

A game is written and committed the moment it finishes, so an interrupted run loses
nothing; a row is keyed by the matchup's content hash, the code version, the run's seed
and the game's index, so running the same evaluation again reuses what is stored.
"""

from __future__ import annotations

import csv
import json
import os
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from kriegsspiel.errors import UsageError, Worded, named
from kriegsspiel.rulesets.bolt_action.game.set_up_order import DEPLOYMENTS, LIST_ORDER
from kriegsspiel.sim.code import code_version
from kriegsspiel.sim.matchup import DEPLOYED, Matchup
from kriegsspiel.sim.outcome import GameOutcome, loaded_units, units_from_rows

SCHEMA_VERSION = 1
# SQLite's application id of a kriegsspiel results file ("Krgs"), set when the file is made:
# what tells the file apart from another program's SQLite file
APPLICATION_ID = 0x4B726773

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matchups (
    matchup TEXT PRIMARY KEY, ruleset TEXT NOT NULL, scenario TEXT NOT NULL,
    army_a TEXT NOT NULL, army_b TEXT NOT NULL, army_a_hash TEXT NOT NULL,
    army_b_hash TEXT NOT NULL, scenario_hash TEXT NOT NULL, players TEXT NOT NULL,
    title TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    matchup TEXT NOT NULL REFERENCES matchups(matchup), code_version TEXT NOT NULL,
    run_seed INTEGER NOT NULL, game_index INTEGER NOT NULL, seed INTEGER NOT NULL,
    swapped INTEGER NOT NULL, winner TEXT NOT NULL, score_a INTEGER NOT NULL,
    score_b INTEGER NOT NULL, turns INTEGER NOT NULL, orders INTEGER NOT NULL,
    units TEXT NOT NULL, finished_at TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (matchup, code_version, run_seed, game_index)
);
"""


def _layout(db: sqlite3.Connection) -> dict[str, tuple[str, ...]]:
    """Each table of a file (SQLite's own left out) and its columns, in order."""
    names = db.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND substr(name, 1, 7) != 'sqlite_'"
    ).fetchall()
    return {
        name: tuple(row[0] for row in db.execute("SELECT name FROM pragma_table_info(?)", (name,)))
        for (name,) in names
    }


def _our_layout() -> dict[str, tuple[str, ...]]:
    with closing(sqlite3.connect(":memory:")) as db:
        db.executescript(_SCHEMA)
        return _layout(db)


OUR_LAYOUT = _our_layout()  # the tables of a results file of this format, and their columns


def _format(db: sqlite3.Connection, layout: dict[str, tuple[str, ...]]) -> str | None:
    """The format a file's meta table gives (None: none given)."""
    if layout.get("meta") != OUR_LAYOUT["meta"]:
        return None
    found = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    return None if found is None else str(found[0])


def _looks_ours(db: sqlite3.Connection, layout: dict[str, tuple[str, ...]]) -> bool:
    """Is a file that is not marked ours one written before results files were marked? It
    has our tables and no other, and its meta table holds the row of its format alone."""
    if set(layout) != set(OUR_LAYOUT) or layout["meta"] != OUR_LAYOUT["meta"]:
        return False
    keys = db.execute("SELECT key FROM meta LIMIT 2").fetchall()
    return keys == [("schema",)]


def _unlike_ours(layout: dict[str, tuple[str, ...]]) -> str:
    """How a file's tables differ from ours ("" if they do not): a table or columns
    missing, or columns we do not have."""
    said = []
    for table, columns in OUR_LAYOUT.items():
        if table not in layout:
            said.append(f"it has no table {table}")
            continue
        missing = [c for c in columns if c not in layout[table]]
        extra = [c for c in layout[table] if c not in columns]
        if missing:
            said.append(f"its table {table} lacks {', '.join(missing)}")
        if extra:
            said.append(f"its table {table} has {', '.join(extra)}, which ours does not")
        if not (missing or extra) and layout[table] != columns:
            said.append(f"its table {table} has its columns in another order")
    return "; ".join(said)


EXPORTS = ("csv", "json", "units-csv")  # a row a game (CSV or JSON), or a row a unit
# a unit's columns in a units-csv export, after its game's: its army, that army's list, the
# side of the table it set up on (A: the scenario's first zone), then as a game stores it
UNIT_COLUMNS = ["army", "list", "side", "slot", "name", "points", "survived", "damage_dealt"]


class StoreError(Worded):
    """The results file cannot be used: corrupt, locked, full or not ours. Its advice is
    worded for each caller: "another store", "make the same call again" to a Python
    caller; "another --results file", "run the same command again" on the command line."""


# the store and its run, as their errors name them to a Python caller (the command line
# tells them as its own: odds_options.RUNS)
ANOTHER = named("another store")  # "another --results file"
AGAIN = named("make the same call again")  # "run the same command again"


class _DamagedRow(ValueError):
    """A stored game's row that kriegsspiel did not write so (changed by hand or by another
    program): what is wrong with it."""


# the columns of a stored game that hold whole numbers, as they are told
_WHOLE = {"game_index": "game number", "seed": "game seed", "score_a": "score_a",
          "score_b": "score_b", "turns": "turns", "orders": "orders"}  # fmt: skip
# a row of the games table that no game of kriegsspiel's is stored as, found by SQLite
# alone and fast (its units are not looked into beyond being a JSON list; reading a game
# back looks into them): what 'results' checks, which reads every row
_DAMAGED = (
    "winner NOT IN ('A', 'B', 'draw') OR typeof(swapped) != 'integer' OR swapped NOT IN (0, 1)"
    " OR typeof(run_seed) != 'integer' OR "
    + " OR ".join(f"typeof({column}) != 'integer'" for column in _WHOLE)
)
_DAMAGED_UNITS = " OR NOT json_valid(units) OR json_type(units) != 'array'"


def _game(row: tuple[Any, ...]) -> GameOutcome:
    """A stored game from its row (game_index, seed, swapped, winner, score_a, score_b,
    turns, orders, units); _DamagedRow if it is not one as kriegsspiel stores it."""
    index, seed, swapped, winner, score_a, score_b, turns, orders, units = row
    _check_columns(row)
    try:
        told = GameOutcome.units_from_json(units)
    except ValueError as exc:
        raise _DamagedRow(str(exc)) from None
    return GameOutcome(index, seed, swapped == 1, winner, score_a, score_b, turns, orders, told)


def _check_columns(row: tuple[Any, ...]) -> None:
    """_DamagedRow if the columns of a stored game's row before its units (as _game reads
    them) are not as kriegsspiel stores them."""
    index, seed, swapped, winner, score_a, score_b, turns, orders = row[:8]
    if not (
        type(index) is int
        and type(seed) is int
        and (swapped == 0 or swapped == 1)
        and type(swapped) is int
        and (winner == "A" or winner == "B" or winner == "draw")
        and type(score_a) is int
        and type(score_b) is int
        and type(turns) is int
        and type(orders) is int
    ):
        raise _DamagedRow(_fault(row))


def _fault(row: tuple[Any, ...]) -> str:
    """What is wrong with the first columns of a stored game's row (as _game reads it)."""
    index, seed, swapped, winner, *rest = row[:8]
    for column, value in (("game_index", index), ("seed", seed)):
        if type(value) is not int:
            return f"its {_WHOLE[column]} is {_told(value)}, not a whole number"
    if type(swapped) is not int or swapped not in (0, 1):
        return f"its swapped is {_told(swapped)}, not 0 or 1"
    if winner not in ("A", "B", "draw"):
        return f"its winner is {_told(winner)}, not A, B or draw"
    for column, value in zip(("score_a", "score_b", "turns", "orders"), rest, strict=True):
        if type(value) is not int:
            return f"its {column} is {_told(value)}, not a whole number"
    return "it is not a game as kriegsspiel stores one"  # (not reached: each is checked)


def _edition_and_rules(ruleset: Any) -> tuple[Any, str | None, str]:
    """A stored ruleset column as an export's three: the edition, the designer's rules
    file with its digest ("house.yaml (3f2a1b0c)") or None, and the deployment
    ("list-order" or "shuffled"). The store keeps them in one column ("konflikt47 with
    rules file house.yaml (3f2a1b0c), deployment shuffled", its layout of before); an
    export splits them, so its ruleset column filters by edition."""
    if not isinstance(ruleset, str):
        return ruleset, None, LIST_ORDER  # (a row edited by hand: shown as it is)
    deployment = LIST_ORDER
    for order in DEPLOYMENTS:  # (told last, after a rules file's digest)
        if order != LIST_ORDER and ruleset.endswith(f"{DEPLOYED}{order}"):
            ruleset, deployment = ruleset.removesuffix(f"{DEPLOYED}{order}"), order
    edition, told, rules_file = ruleset.partition(" with rules file ")
    return (edition, rules_file, deployment) if told else (ruleset, None, deployment)


def told_title(title: str, army_a: str, army_b: str) -> str:
    """A stored matchup's title, with its lists' files (``army_a``, ``army_b``) where it
    names two lists alike ("X v X"), as files stored before titles told them apart hold
    it; a title that tells them apart already is kept as it is."""
    if not all(isinstance(text, str) for text in (title, army_a, army_b)):
        return title  # (a row edited by hand: shown as it is)
    half = (len(title) - 3) // 2
    name = title[:half]
    if title != f"{name} v {name}" or army_a == army_b:
        return title
    files = [army_a, army_b]
    if Path(army_a).name != Path(army_b).name:
        files = [Path(army_a).name, Path(army_b).name]
    return f"{name} ({files[0]}) v {name} ({files[1]})"


def _told(value: object) -> str:
    """A value read from SQLite as a message tells it."""
    if isinstance(value, bytes):
        return f"{len(value)} bytes of binary data"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True, slots=True)
class StoredRun:
    """A group of stored games: one matchup, code version and run seed."""

    matchup: str
    title: str
    ruleset: str
    scenario: str
    players: str
    code_version: str
    run_seed: int
    games: int
    wins_a: int
    draws: int
    wins_b: int
    army_a: str = ""  # each list as it was given: a shipped one's name, or its file
    army_b: str = ""


def _held_by_another(exc: sqlite3.DatabaseError) -> bool:
    """Does SQLite's error say another connection holds the file (locked, or busy)?"""
    return "locked" in str(exc) or "busy" in str(exc)


def _beside(path: Path) -> list[Path]:
    """The write-ahead log and its shared-memory index, which SQLite keeps beside a file in
    WAL mode while it is open."""
    return [path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


def _made_with(path: Path) -> list[Path]:
    """The file at ``path`` and those SQLite may make beside it as it makes it."""
    return [path, *_beside(path), path.with_name(path.name + "-journal")]


def _holds_no_table(path: Path) -> bool:
    """Is the file at ``path`` empty, or an SQLite file of a single page (its header and
    list of tables: every table has a page of its own), its write-ahead log aside?"""
    size = path.stat().st_size
    with open(path, "rb") as file:
        head = file.read(100)
    if size == 0 or not head.startswith(b"SQLite format 3\0") or len(head) < 100:
        return size == 0
    page = int.from_bytes(head[16:18], "big")
    return size <= (65536 if page == 1 else page)


def _in_use(shm: Path, path: Path) -> bool:
    """Might a connection (of any process, this one's too) have the write-ahead index
    ``shm`` of the file at ``path`` open? Each one holds a lock on it while it does, which
    Linux lists in /proc/locks; where the system cannot tell, it might, unless nobody can
    write the file (no write permission): then no connection can have added to its log."""
    try:
        inode = shm.stat().st_ino
        with open("/proc/locks", "rb") as locks:
            held = locks.read()
    except OSError:
        return path.stat().st_mode & 0o222 != 0
    # a line a lock: "1: POSIX  ADVISORY  READ 4711 08:01:1234567 128 128" (major, minor
    # and inode of its file); the inode alone is matched, which at worst keeps the files
    return re.search(rb"\s[0-9a-f]+:[0-9a-f]+:%d\s" % inode, held) is not None


def _cannot_write(path: Path) -> str:
    """Why SQLite found the file at ``path`` read-only, and what to do: most often, its
    files beside it were left read-only (by a read of it while it was read-only, by an
    older kriegsspiel or another program)."""
    stuck = [p for p in _beside(path) if p.exists() and not os.access(p, os.W_OK)]
    if not stuck:
        return (
            "it cannot be written (it or its folder is read-only); make it writable or give "
            f"{ANOTHER}"
        )
    wal = _beside(path)[0]
    names, them = " and ".join(str(p) for p in stuck), "them" if len(stuck) > 1 else "it"
    if wal.exists() and wal.stat().st_size > 0:
        do = (
            f"make {them} writable (chmod u+w); do not remove {wal.name}: it holds games not "
            "yet written into the file"
        )
    else:
        do = f"remove {them} (no game is lost: {wal.name} is empty or not there)"
    return f"SQLite's files beside it cannot be written: {names}; {do}, then {AGAIN}"


def _open_to_read(path: Path, timeout: float) -> sqlite3.Connection:
    """A connection that cannot write: read-only, and, where even SQLite's read-only mode
    needs to write beside the file (a read-only folder), reading it as it stands."""
    uri = path.resolve().as_uri()
    db = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=timeout, isolation_level=None)
    try:
        db.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
        return db
    except sqlite3.DatabaseError as exc:
        db.close()  # (a damaged file too: left open, it kept SQLite's files beside it)
        if not isinstance(exc, sqlite3.OperationalError) or _held_by_another(
            exc
        ):  # a writer holds it: not to be read
            raise  # as it stands on disk, which may lack that writer's games (told as locked)
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:  # read as it stands, its last games are lost
        raise StoreError(
            f"{path} cannot be read where it is: its newest games are still in {wal.name}, "
            "and SQLite cannot read them without writing beside the file. Open it once in "
            "a folder that can be written (copy both files there), or run the command "
            "there."
        )
    return sqlite3.connect(f"{uri}?immutable=1", uri=True, timeout=timeout, isolation_level=None)


class Store:
    """An open results file. Use as a context manager; every ``add`` is committed at once."""

    def __init__(self, path: str | Path, timeout: float = 10.0, *, read_only: bool = False) -> None:
        """Open (or create) the results file; ``read_only`` opens an existing one only to
        read it, changing nothing (so a read-only file or folder can still be listed).

        A file that is not a kriegsspiel results file of this format is refused before
        anything in it is changed (StoreError)."""
        self.path = Path(path)
        self.read_only = read_only
        if read_only and not self.path.exists():  # (SQLite's read-only mode would not say so)
            raise StoreError(f"results file {self.path}: there is no such file.")
        # SQLite's files beside it that are not there before a read (it may make them)
        self._not_beside = [p for p in _beside(self.path) if not p.exists()] if read_only else []
        # a new file (and the files beside it) that this open makes, removed if it fails
        self._new = [] if read_only else [p for p in _made_with(self.path) if not p.exists()]
        try:
            with self._guard("open"):
                if read_only:
                    self.db = _open_to_read(self.path, timeout)
                else:
                    self.db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
                try:
                    self._open()
                except BaseException:
                    self.db.close()
                    raise
        except BaseException as exc:
            self._tidy()
            self._unmake(exc)
            raise

    def _unmake(self, exc: BaseException) -> bool:
        """After a failed open: remove the file it made, if it holds nothing yet (a full disk
        or a quota leaves it empty, or a bare header), and the files beside it that it made;
        whether it did. A file another run is making (it holds it locked) is its own."""
        new, self._new = self._new, []
        if self.path not in new or not self.path.exists():
            return False
        held = isinstance(exc, sqlite3.DatabaseError) and _held_by_another(exc)
        wal = _beside(self.path)[0]
        with suppress(OSError):
            if held or not _holds_no_table(self.path) or (wal.exists() and wal.stat().st_size):
                return False
            for made in new:
                made.unlink(missing_ok=True)
            return True
        return False

    def _open(self) -> None:
        """Look at the file just connected to: refuse it if it is not ours; make it if it is
        empty; mark it as ours if it was written before files were marked."""
        blank, marked = self._identify()
        if self.read_only:
            return
        if blank:
            self._make()
            return
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        if not marked:  # ours beyond doubt (every table and column, and its format's row)
            self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")

    def _make(self) -> None:
        """Make the tables of an empty file, mark it as ours and write its format, in one
        transaction (another run making the same file at once finds it made)."""
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("BEGIN IMMEDIATE")
        try:
            blank, _ = self._identify()  # (again: another run may have made it meanwhile)
            if blank:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        except BaseException:
            if self.db.in_transaction:  # (SQLite rolls back itself on a full disk, say)
                with suppress(sqlite3.Error):
                    self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _identify(self) -> tuple[bool, bool]:
        """Whether the file is blank (no table yet: to be made) and whether it is marked as
        ours (SQLite's application id); StoreError if it is not a results file of this
        format, having changed nothing.

        A file is ours if it is marked so, or (written before files were marked) if it
        holds exactly our three tables and its meta table only the row of its format:
        another program's file with a table named ``meta`` (a web browser's history) is
        not."""
        marked = self.db.execute("PRAGMA application_id").fetchone()[0]
        layout = _layout(self.db)
        if not layout and marked in (0, APPLICATION_ID):
            if self.read_only:
                self._refuse("it is empty")
            return True, False
        if marked != APPLICATION_ID and not _looks_ours(self.db, layout):
            tables = ", ".join(sorted(layout)) or "none"
            other = f"another program's (SQLite application id {marked}); " if marked else ""
            self._refuse(f"{other}its tables: {tables}")
        found = _format(self.db, layout)
        if found is not None and found != str(SCHEMA_VERSION):
            raise StoreError(
                f"{self.path} holds results in format {found}; this kriegsspiel reads "
                f"format {SCHEMA_VERSION}. It is left as it was; use {ANOTHER}."
            )
        unlike = _unlike_ours(layout)
        if unlike:
            raise StoreError(
                f"{self.path} holds kriegsspiel results in another layout than this "
                f"kriegsspiel reads ({unlike}: another version made it); it is left as it "
                f"was. Give {ANOTHER}, or read it with the version that made it."
            )
        return False, marked == APPLICATION_ID

    def _refuse(self, holds: str) -> None:
        raise StoreError(
            f"{self.path} is not a kriegsspiel results file ({holds}); it is left "
            f"untouched. Give {ANOTHER}."
        )

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()
        self._tidy()

    def _tidy(self) -> None:
        """After a read: remove the files SQLite made beside the file to read it in WAL
        mode (its read-only mode cannot remove them), unless another connection uses them
        or the log holds anything. Left there, they keep the permissions of a read-only
        file, and writing to it fails once it is made writable again."""
        made, self._not_beside = self._not_beside, []
        wal, shm = _beside(self.path)
        if made != [wal, shm] or not shm.exists():  # (one was there before: not ours)
            return
        with suppress(OSError, sqlite3.Error):
            if wal.exists() and wal.stat().st_size > 0:
                return
            if os.access(self.path, os.W_OK) and os.access(shm, os.W_OK):
                # one that may write leaves it to SQLite: the last connection to close
                # removes them under its own exclusive lock, which a writer opening the
                # file meanwhile waits for (removed by hand, its games could go with them)
                last = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=rw", uri=True)
                try:
                    last.execute("SELECT count(*) FROM sqlite_master").fetchone()
                finally:
                    last.close()
                return
            if self.path.stat().st_mode & 0o222 or _in_use(shm, self.path):
                return  # someone may write the file, or a connection uses them: kept
            wal.unlink(missing_ok=True)
            shm.unlink()

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """Turn SQLite's failures into one clear message that names the file."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            name = getattr(exc, "sqlite_errorname", "") or ""  # e.g. SQLITE_IOERR_WRITE
            if _held_by_another(exc) and doing == "open":
                why = f"it is locked by another program (another kriegsspiel run?); wait or use {ANOTHER}"
            elif _held_by_another(exc):  # (mid-run: what is stored is kept, and resumes)
                why = f"it is locked by another program (another kriegsspiel run?); once it is free, {AGAIN} to resume (or use {ANOTHER})"
            elif name.startswith("SQLITE_READONLY"):
                why = _cannot_write(self.path)
            elif name == "SQLITE_FULL" or "full" in text:
                why = f"the disk is full; free some space and {AGAIN} to resume"
            elif name in ("SQLITE_IOERR_READ", "SQLITE_IOERR_SHORT_READ"):
                why = f"could not read from the disk (a device error): {text} ({name}); {AGAIN} to resume"
            elif name.startswith("SQLITE_IOERR"):  # (ENOSPC alone is told as SQLITE_FULL)
                why = f"could not write to the disk (a quota, a file-size limit or a device error): {text} ({name}); {AGAIN} to resume"
            elif "not a database" in text or "malformed" in text:
                why = f"it is not a kriegsspiel results file or it is damaged; move it aside or use {ANOTHER}"
            elif (
                "unable to open" in text
                and self.path.is_file()
                and not os.access(self.path, os.R_OK)
            ):
                why = f"it cannot be read (no permission); make it readable, or give {ANOTHER}"
            elif "unable to open" in text:
                why = f"it cannot be opened or made there; give {named('Store a path')} in a folder you can write to"
            else:
                why = text
            if doing != "open":
                kept = " Games already stored are kept."
            elif self.path not in self._new:  # (this run has written nothing to it)
                kept = " It is left as it was." if self.path.exists() else ""
            elif self._unmake(exc):
                kept = " No file is left there (there was none before)."
            else:
                kept = ""
            raise StoreError(f"results file {self.path}: could not {doing}: {why}.{kept}") from exc

    def register(self, matchup: Matchup) -> None:
        if self.read_only:  # an evaluation read back whole: nothing new to record
            return
        with self._guard("record the matchup"):
            self.db.execute(
                "INSERT OR IGNORE INTO matchups VALUES (?,?,?,?,?,?,?,?,?,?)",
                (
                    matchup.key,
                    # (the rules file, if any, told with the ruleset: no column of its own,
                    # so that results files of this layout are read as they were)
                    matchup.described_ruleset,
                    matchup.scenario.label,
                    matchup.armies[0].label,
                    matchup.armies[1].label,
                    matchup.armies[0].digest,
                    matchup.armies[1].digest,
                    matchup.scenario.digest,
                    ",".join(matchup.players),
                    matchup.title,  # (the lists' files too, where their names clash)
                ),
            )

    def add(self, matchup: Matchup, run_seed: int, outcome: GameOutcome) -> None:
        """Store one finished game and commit it (already stored: nothing changes)."""
        with self._guard("store a game"):
            self.db.execute(
                "INSERT OR IGNORE INTO games (matchup, code_version, run_seed, game_index, seed,"
                " swapped, winner, score_a, score_b, turns, orders, units)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    matchup.key,
                    code_version(),
                    run_seed,
                    outcome.index,
                    outcome.seed,
                    int(outcome.swapped),
                    outcome.winner,
                    outcome.score_a,
                    outcome.score_b,
                    outcome.turns,
                    outcome.orders,
                    outcome.units_json(),
                ),
            )

    def count(self, matchup: Matchup, run_seed: int, below: int) -> int:
        """How many of games ``0..below-1`` of this matchup, code version and seed are stored;
        StoreError if one of them has a game number that is not one (it would be counted
        wrong, or not at all)."""
        with self._guard("read stored games"):
            bad = self.db.execute(
                "SELECT rowid, game_index FROM games WHERE matchup=? AND code_version=?"
                " AND run_seed=? AND typeof(game_index) != 'integer' LIMIT 1",
                (matchup.key, code_version(), run_seed),
            ).fetchone()
            if bad is not None:
                what = f"its game number is {_told(bad[1])}, not a whole number"
                raise self._damaged(bad[0], matchup.key, code_version(), run_seed, bad[1], what)
            row = self.db.execute(
                "SELECT COUNT(*) FROM games WHERE matchup=? AND code_version=? AND run_seed=?"
                " AND game_index<?",
                (matchup.key, code_version(), run_seed, below),
            ).fetchone()
        return int(row[0])

    def other_code(self, matchup: Matchup, run_seed: int, below: int) -> dict[str, int]:
        """Games ``0..below-1`` of this matchup and seed stored by other code than this (a
        run never reuses them), counted by code version."""
        with self._guard("read stored games"):
            rows = self.db.execute(
                "SELECT code_version, COUNT(*) FROM games WHERE matchup=? AND run_seed=?"
                " AND game_index<? AND code_version!=? GROUP BY code_version"
                " ORDER BY code_version",
                (matchup.key, run_seed, below, code_version()),
            ).fetchall()
        return {str(row[0]): int(row[1]) for row in rows}

    def indices(
        self, matchup: Matchup, run_seed: int, start: int = 0, limit: int = -1
    ) -> list[int]:
        """The stored game numbers from ``start`` on (at most ``limit``), in order."""
        with self._guard("read stored games"):
            rows = self.db.execute(
                "SELECT game_index FROM games WHERE matchup=? AND code_version=? AND run_seed=?"
                " AND game_index>=? ORDER BY game_index LIMIT ?",
                (matchup.key, code_version(), run_seed, start, limit),
            ).fetchall()
        return [row[0] for row in rows]

    def outcomes(
        self, matchup: Matchup, run_seed: int, start: int = 0, limit: int = -1
    ) -> dict[int, GameOutcome]:
        """Stored games from number ``start`` on (at most ``limit``), by number; StoreError,
        naming the row, for one that is not a game as kriegsspiel stores one."""
        with self._guard("read stored games"):
            rows = self.db.execute(
                "SELECT game_index, seed, swapped, winner, score_a, score_b, turns, orders, units,"
                " rowid FROM games WHERE matchup=? AND code_version=? AND run_seed=?"
                " AND game_index>=? ORDER BY game_index LIMIT ?",
                (matchup.key, code_version(), run_seed, start, limit),
            ).fetchall()
        read = {}
        for row in rows:
            try:
                read[row[0]] = _game(row[:9])
            except _DamagedRow as exc:
                raise self._damaged(
                    row[9], matchup.key, code_version(), run_seed, row[0], str(exc)
                ) from None
        return read

    def _damaged(
        self,
        rowid: int,
        matchup: str,
        code: str,
        run_seed: object,
        index: object,
        what: str,
        then: str = f"{AGAIN}: it plays that game again",
    ) -> StoreError:
        """The error of a stored game's row that kriegsspiel did not write so (changed by
        hand or by another program): which row and game, what is wrong, what to do."""
        by = "" if code == code_version() else f", stored by code {code}"
        return StoreError(
            f"results file {self.path}: row {rowid} of its games (game {_told(index)} of "
            f"matchup {matchup[:8]}, run with {named('run_seed', shown=_told(run_seed))}{by}) is "
            f"damaged: {what}. The file is left as it was: move it aside and give {ANOTHER}, or delete "
            f"that row (with the sqlite3 tool: DELETE FROM games WHERE rowid = {rowid};) and "
            f"{then}."
        )

    def _check_rows(self, matchup: str) -> None:
        """StoreError for the first damaged row (see _DAMAGED) of the matchups whose id
        starts with ``matchup``, saying how many there are."""
        where = "substr(matchup, 1, ?) = ? AND ("
        try:  # (SQLite built without its JSON functions: the units are not looked at)
            found = self.db.execute(
                f"SELECT rowid FROM games WHERE {where}{_DAMAGED}{_DAMAGED_UNITS}) LIMIT 1",
                (len(matchup), matchup),
            ).fetchone()
            damaged = _DAMAGED + _DAMAGED_UNITS
        except sqlite3.OperationalError as exc:
            if "no such function" not in str(exc):
                raise
            damaged = _DAMAGED
            found = self.db.execute(
                f"SELECT rowid FROM games WHERE {where}{damaged}) LIMIT 1", (len(matchup), matchup)
            ).fetchone()
        if found is None:
            return
        row = self.db.execute(
            "SELECT game_index, seed, swapped, winner, score_a, score_b, turns, orders, units,"
            " matchup, code_version, run_seed FROM games WHERE rowid = ?",
            found,
        ).fetchone()
        try:
            _game(row[:9])
            what = (
                f"its run seed ({named('run_seed')}) is {_told(row[11])}, not a whole number"
                if type(row[11]) is not int
                else "it is not a game as kriegsspiel stores one"
            )
        except _DamagedRow as exc:
            what = str(exc)
        more = self.db.execute(
            f"SELECT COUNT(*) FROM games WHERE {where}{damaged})", (len(matchup), matchup)
        ).fetchone()[0]
        if more > 1:
            what += f" (and {more - 1} more {'row is' if more == 2 else 'rows are'} damaged)"
        raise self._damaged(found[0], row[9], row[10], row[11], row[0], what, "list it again")

    def runs(self, matchup: str = "") -> list[StoredRun]:
        """Each stored run (a matchup, code version and seed) with its totals; only the
        matchups whose id starts with ``matchup``, if given; StoreError for a damaged row."""
        with self._guard("list stored results"):
            self._check_rows(matchup)
            rows = self.db.execute(
                "SELECT g.matchup, m.title, m.ruleset, m.scenario, m.players, g.code_version,"
                " g.run_seed, COUNT(*), SUM(g.winner='A'), SUM(g.winner='draw'),"
                " SUM(g.winner='B'), m.army_a, m.army_b FROM games g JOIN matchups m"
                " USING (matchup) WHERE substr(g.matchup, 1, ?) = ?"
                " GROUP BY g.matchup, g.code_version, g.run_seed ORDER BY m.title, g.run_seed",
                (len(matchup), matchup),
            ).fetchall()
        return [StoredRun(row[0], told_title(row[1], row[11], row[12]), *row[2:]) for row in rows]

    def prune(self, matchup: str = "") -> tuple[int, int]:
        """Delete the games stored by other code than this (a run reuses only its own code's
        games), and the matchups that loses all their games; only those of the matchups
        whose id starts with ``matchup``, if given. Then shrink the file. Returns the games
        deleted and the games left in the file. The deleting is one transaction: stopped
        halfway, it deletes nothing. A matchup with no games before the prune (an evaluation
        that has just begun) is left alone."""
        old = (code_version(), len(matchup), matchup)
        with self._guard("delete the games of other code"):
            self.db.execute("BEGIN IMMEDIATE")
            try:
                touched = self.db.execute(
                    "SELECT DISTINCT matchup FROM games"
                    " WHERE code_version != ? AND substr(matchup, 1, ?) = ?",
                    old,
                ).fetchall()
                deleted = self.db.execute(
                    "DELETE FROM games WHERE code_version != ? AND substr(matchup, 1, ?) = ?", old
                ).rowcount
                self.db.executemany(
                    "DELETE FROM matchups WHERE matchup = ?"
                    " AND NOT EXISTS (SELECT 1 FROM games WHERE games.matchup = matchups.matchup)",
                    touched,
                )
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
            left = int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        with self._guard("shrink the file"):
            self.db.execute("VACUUM")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return deleted, left

    def export(self, out: IO[str], fmt: str, matchup: str = "") -> int:
        """Write every stored game (one row each) as CSV or JSON (``fmt``: "csv" or
        "json"), or every unit of every game, one row each, as CSV ("units-csv": a unit's
        figures to pivot in a spreadsheet, each row with its game's columns); only those
        of the matchups whose id starts with ``matchup``, if given. Returns the number of
        games. A format or matchup id that is not one is a UsageError (an export of no
        games is only one of a file that holds none)."""
        if fmt not in EXPORTS:
            raise UsageError(f"exports are {', '.join(EXPORTS)}, not {fmt!r}")
        if not isinstance(matchup, str):
            raise UsageError(
                "the matchup is given by its id as text (a Matchup's .key, or the start of an "
                f"id 'kriegsspiel results' lists), not {type(matchup).__name__} {matchup!r}"
            )
        if matchup and not self.runs(matchup):
            ids = sorted({run.matchup[:8] for run in self.runs()})
            raise UsageError(
                f"no stored matchup has an id starting {matchup!r}; the ids in {self.path} "
                f"are {', '.join(ids) if ids else 'none (no games are stored)'}"
            )
        columns = [
            "matchup", "title", "ruleset", "rules_file", "deployment", "scenario", "army_a", "army_b", "army_a_hash",
            "army_b_hash", "scenario_hash", "players", "code_version", "run_seed", "game_index", "seed",
            "swapped", "winner", "score_a", "score_b", "turns", "orders", "units",
            "finished_at",
        ]  # fmt: skip
        with self._guard("export stored games"):
            rows = self.db.execute(
                "SELECT g.matchup, m.title, m.ruleset, m.scenario, m.army_a, m.army_b,"
                " m.army_a_hash, m.army_b_hash, m.scenario_hash, m.players, g.code_version, g.run_seed,"
                " g.game_index, g.seed, g.swapped, g.winner, g.score_a, g.score_b, g.turns,"
                " g.orders, g.units, g.finished_at, g.rowid FROM games g JOIN matchups m"
                " USING (matchup)"
                " WHERE substr(g.matchup, 1, ?) = ?"
                " ORDER BY g.matchup, g.code_version, g.run_seed, g.game_index",
                (len(matchup), matchup),
            )
            # row by row from the cursor, so exporting a million games takes no more memory
            # than exporting ten
            count = 0
            if fmt == "units-csv":
                writer = csv.writer(out)
                game_columns = columns[: columns.index("units")]
                writer.writerow(game_columns + UNIT_COLUMNS)
                for row in rows:
                    values, units = self._exported(row)
                    game = values[: len(game_columns)]
                    swapped = values[columns.index("swapped")]
                    lists = values[columns.index("army_a")], values[columns.index("army_b")]
                    for unit in units:
                        mine = unit["army"] == "A"
                        side = "A" if mine != bool(swapped) else "B"  # (the table's side)
                        writer.writerow(
                            [*game, unit["army"], lists[0 if mine else 1], side]
                            + [unit[key] for key in UNIT_COLUMNS[3:-2]]
                            + [int(unit["survived"]), unit["damage_dealt"]]  # (as swapped)
                        )
                    count += 1
            elif fmt == "csv":
                writer = csv.writer(out)
                writer.writerow(columns)
                for row in rows:
                    writer.writerow(self._exported(row)[0])
                    count += 1
            else:
                out.write("[")
                for row in rows:
                    values, units = self._exported(row)
                    record: dict[str, Any] = dict(zip(columns, values, strict=True))
                    record["units"] = units
                    record["swapped"] = bool(record["swapped"])
                    out.write(",\n" if count else "\n")
                    out.write(json.dumps(record))
                    count += 1
                out.write("\n]\n" if count else "]\n")
        return count

    def _exported(self, row: tuple[Any, ...]) -> tuple[tuple[Any, ...], Any]:
        """A row of an export (its row id left off) and its units, loaded from their JSON,
        checked: StoreError if it is damaged."""
        try:
            _check_columns(row[12:21])
            if type(row[11]) is not int:
                raise _DamagedRow(
                    f"its run seed ({named('run_seed')}) is {_told(row[11])}, not a whole number"
                )
            units = loaded_units(row[20])
            units_from_rows(units)
        except ValueError as exc:  # (_DamagedRow, or the units')
            then = "export again (that game is then left out)"
            raise self._damaged(
                row[22], row[0], row[10], row[11], row[12], str(exc), then
            ) from None
        ruleset, rules_file, deployment = _edition_and_rules(row[2])
        title = told_title(row[1], row[4], row[5])
        return (row[0], title, ruleset, rules_file, deployment, *row[3:22]), units
