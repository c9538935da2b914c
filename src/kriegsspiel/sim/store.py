"""The results store: one SQLite file (WAL mode), one row per finished game.

A game is written and committed the moment it finishes, so an interrupted run loses
nothing; a row is keyed by the matchup's content hash, the code version, the run's seed
and the game's index, so running the same evaluation again reuses what is stored.
"""

from __future__ import annotations

import csv
import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from kriegsspiel.errors import KriegsspielError
from kriegsspiel.sim.code import code_version
from kriegsspiel.sim.matchup import Matchup, army_name
from kriegsspiel.sim.outcome import GameOutcome

SCHEMA_VERSION = 1

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


class StoreError(KriegsspielError):
    """The results file cannot be used: corrupt, locked, full or not ours."""


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


def _held_by_another(exc: sqlite3.DatabaseError) -> bool:
    """Does SQLite's error say another connection holds the file (locked, or busy)?"""
    return "locked" in str(exc) or "busy" in str(exc)


def _open_to_read(path: Path, timeout: float) -> sqlite3.Connection:
    """A connection that cannot write: read-only, and, where even SQLite's read-only mode
    needs to write beside the file (a read-only folder), reading it as it stands."""
    uri = path.resolve().as_uri()
    db = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=timeout, isolation_level=None)
    try:
        db.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
        return db
    except sqlite3.OperationalError as exc:
        db.close()
        if _held_by_another(exc):  # a writer holds it: not to be read
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
        read it, changing nothing (so a read-only file or folder can still be listed)."""
        self.path = Path(path)
        self.read_only = read_only
        if read_only and not self.path.exists():  # (SQLite's read-only mode would not say so)
            raise StoreError(f"results file {self.path}: there is no such file.")
        with self._guard("open"):
            if read_only:
                self.db = _open_to_read(self.path, timeout)
            else:
                self.db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
            tables = {
                row[0]
                for row in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            if (tables and "meta" not in tables) or (read_only and not tables):
                self.db.close()
                holds = f"its tables: {', '.join(sorted(tables))}" if tables else "it is empty"
                raise StoreError(
                    f"{self.path} is not a kriegsspiel results file ({holds}); it is left "
                    "untouched. Give another --results file."
                )
            if read_only:
                self._check_schema()
                return
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            if self._check_schema() is None:
                self.db.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )

    def _check_schema(self) -> str | None:
        """The file's format (None if not yet written); refuse another format."""
        found = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if found is not None and found[0] != str(SCHEMA_VERSION):
            raise StoreError(
                f"{self.path} holds results in format {found[0]}; this kriegsspiel reads "
                f"format {SCHEMA_VERSION}. Use another --results file."
            )
        return None if found is None else str(found[0])

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """Turn SQLite's failures into one clear message that names the file."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            if _held_by_another(exc):
                why = "it is locked by another program (another kriegsspiel run?); wait or use another --results file"
            elif "full" in text:
                why = "the disk is full; free some space and run the same command again to resume"
            elif "not a database" in text or "malformed" in text:
                why = "it is not a kriegsspiel results file or it is damaged; move it aside or use another --results file"
            elif "unable to open" in text:
                why = "it cannot be opened or made there; give a --results file in a folder you can write to"
            else:
                why = text
            if doing != "open":
                kept = " Games already stored are kept."
            else:  # (this run has written nothing to it)
                kept = " It is left as it was." if self.path.exists() else ""
            raise StoreError(f"results file {self.path}: could not {doing}: {why}.{kept}") from exc

    def register(self, matchup: Matchup) -> None:
        if self.read_only:  # an evaluation read back whole: nothing new to record
            return
        with self._guard("record the matchup"):
            self.db.execute(
                "INSERT OR IGNORE INTO matchups VALUES (?,?,?,?,?,?,?,?,?,?)",
                (
                    matchup.key,
                    matchup.ruleset,
                    matchup.scenario.label,
                    matchup.armies[0].label,
                    matchup.armies[1].label,
                    matchup.armies[0].digest,
                    matchup.armies[1].digest,
                    matchup.scenario.digest,
                    ",".join(matchup.players),
                    f"{army_name(matchup.armies[0])} v {army_name(matchup.armies[1])}",
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
        """How many of games ``0..below-1`` of this matchup, code version and seed are stored."""
        with self._guard("read stored games"):
            row = self.db.execute(
                "SELECT COUNT(*) FROM games WHERE matchup=? AND code_version=? AND run_seed=?"
                " AND game_index<?",
                (matchup.key, code_version(), run_seed, below),
            ).fetchone()
        return int(row[0])

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
        """Stored games from number ``start`` on (at most ``limit``), by number."""
        with self._guard("read stored games"):
            rows = self.db.execute(
                "SELECT game_index, seed, swapped, winner, score_a, score_b, turns, orders, units"
                " FROM games WHERE matchup=? AND code_version=? AND run_seed=? AND game_index>=?"
                " ORDER BY game_index LIMIT ?",
                (matchup.key, code_version(), run_seed, start, limit),
            ).fetchall()
        return {
            row[0]: GameOutcome(
                index=row[0],
                seed=row[1],
                swapped=bool(row[2]),
                winner=row[3],
                score_a=row[4],
                score_b=row[5],
                turns=row[6],
                orders=row[7],
                units=GameOutcome.units_from_json(row[8]),
            )
            for row in rows
        }

    def runs(self, matchup: str = "") -> list[StoredRun]:
        """Each stored run (a matchup, code version and seed) with its totals; only the
        matchups whose id starts with ``matchup``, if given."""
        with self._guard("list stored results"):
            rows = self.db.execute(
                "SELECT g.matchup, m.title, m.ruleset, m.scenario, m.players, g.code_version,"
                " g.run_seed, COUNT(*), SUM(g.winner='A'), SUM(g.winner='draw'),"
                " SUM(g.winner='B') FROM games g JOIN matchups m USING (matchup)"
                " WHERE substr(g.matchup, 1, ?) = ?"
                " GROUP BY g.matchup, g.code_version, g.run_seed ORDER BY m.title, g.run_seed",
                (len(matchup), matchup),
            ).fetchall()
        return [StoredRun(*row) for row in rows]

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
        "json"), or only those of the matchups whose id starts with ``matchup``; returns
        the number of games."""
        if fmt not in ("csv", "json"):
            raise ValueError(f"exports are csv or json, not {fmt!r}")
        columns = [
            "matchup", "title", "ruleset", "scenario", "army_a", "army_b", "army_a_hash",
            "army_b_hash", "scenario_hash", "players", "code_version", "run_seed", "game_index", "seed",
            "swapped", "winner", "score_a", "score_b", "turns", "orders", "units",
            "finished_at",
        ]  # fmt: skip
        with self._guard("export stored games"):
            rows = self.db.execute(
                "SELECT g.matchup, m.title, m.ruleset, m.scenario, m.army_a, m.army_b,"
                " m.army_a_hash, m.army_b_hash, m.scenario_hash, m.players, g.code_version, g.run_seed,"
                " g.game_index, g.seed, g.swapped, g.winner, g.score_a, g.score_b, g.turns,"
                " g.orders, g.units, g.finished_at FROM games g JOIN matchups m USING (matchup)"
                " WHERE substr(g.matchup, 1, ?) = ?"
                " ORDER BY g.matchup, g.code_version, g.run_seed, g.game_index",
                (len(matchup), matchup),
            )
            # row by row from the cursor, so exporting a million games takes no more memory
            # than exporting ten
            count = 0
            if fmt == "csv":
                writer = csv.writer(out)
                writer.writerow(columns)
                for row in rows:
                    writer.writerow(row)
                    count += 1
            else:
                out.write("[")
                for row in rows:
                    record: dict[str, Any] = dict(zip(columns, row, strict=True))
                    record["units"] = json.loads(record["units"])
                    record["swapped"] = bool(record["swapped"])
                    out.write(",\n" if count else "\n")
                    out.write(json.dumps(record))
                    count += 1
                out.write("\n]\n" if count else "]\n")
        return count
