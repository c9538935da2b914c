"""Game records read back: every record play writes replays; a replay names the first line
where it parts from the record; every line is checked as the event it names; a record cut
short, or without its final newline, reproduces as far as it goes and says so."""

from __future__ import annotations

import json
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest
from conftest import run_cli
from test_record_rolls import older_format

from kriegsspiel.core.records import dumps, write_record
from kriegsspiel.errors import DataFileError
from kriegsspiel.rulesets.bolt_action.game import record
from kriegsspiel.rulesets.bolt_action.game.record_events import EVENTS
from kriegsspiel.sim.matchup import build_matchup, play_game

SRC = Path(__file__).resolve().parent.parent / "src" / "kriegsspiel"
RULESETS = ("konflikt47", "bolt-action-1")
SCENARIOS = ("meeting-engagement", "hold-the-crossroads")
PLAYERS = ("random,random", "tactical,tactical", "tactical,random")


def write_game(path: Path, ruleset: str, scenario: str, players: str, seed: int) -> str:
    """Play a game as ``kriegsspiel play`` does and write its record; return the text."""
    matchup = build_matchup(ruleset, scenario, [], players)
    game = play_game(matchup, seed)
    texts = (matchup.armies[0].text, matchup.armies[1].text)
    head = record.header(game, matchup.scenario.text, texts, matchup.players)
    return write_record(path, head, game.events)


@cache
def sample_text() -> str:
    """A whole Konflikt '47 game between two tactical players, as play writes it."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return write_game(Path(folder, "game.jsonl"), "konflikt47", "meeting-engagement",
                          "tactical,tactical", 2)  # fmt: skip


def written(path: Path, lines: list[str], end: str = "\n") -> Path:
    path.write_text("\n".join(lines) + end, encoding="utf-8")
    return path


def changed(path: Path, number: int, **fields: object) -> Path:
    """The sample record with line ``number`` (1-based) changed; a field given as None
    is taken out."""
    lines = sample_text().splitlines()
    row = json.loads(lines[number - 1])
    for key, value in fields.items():
        if value is None:
            row.pop(key, None)
        else:
            row[key] = value
    lines[number - 1] = dumps(row)
    return written(path, lines)


def line_of(event: str, after: int = 0) -> int:
    """The 1-based line of the sample's first ``event`` after line ``after``."""
    lines = sample_text().splitlines()
    return next(
        i + 1 for i in range(after, len(lines)) if json.loads(lines[i]).get("event") == event
    )


def replay_cli(path: Path) -> subprocess.CompletedProcess[str]:
    return run_cli("replay", str(path), timeout=120)


# ----------------------------------------------------------------------------- what play writes
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("players", PLAYERS)
def test_every_record_play_writes_replays(
    ruleset: str, scenario: str, players: str, tmp_path: Path
) -> None:
    """Records of both rulesets, both shipped scenarios, tactical and random players all
    pass the strict check of every line, and reproduce to the game's end."""
    seeds = range(3) if players == "random,random" else range(1)
    for seed in seeds:
        path = tmp_path / f"{seed}.jsonl"
        write_game(path, ruleset, scenario, players, seed)
        result = record.replay(path)
        assert result.reproduced, (seed, result.first_difference, result.expected, result.actual)
        assert result.finished and result.notes() == []


def test_a_record_with_a_vehicle_assault_replays(tmp_path: Path) -> None:
    """Rare events keep all the fields the game writes (here what an assault did to a
    tank: the sample games above hold none)."""
    matchup = build_matchup("bolt-action-1", "hold-the-crossroads", [], "tactical,tactical")
    seed = next(  # the first game that has one (seed 11 when written), so no seed is pinned
        s
        for s in range(1, 200)
        if any(e.kind == "assault vehicle" for e in play_game(matchup, s).events)
    )
    path = tmp_path / "assault.jsonl"
    write_game(path, "bolt-action-1", "hold-the-crossroads", "tactical,tactical", seed)
    events = [json.loads(line).get("event") for line in path.read_text().splitlines()]
    assert "assault vehicle" in events
    result = record.replay(path)
    assert result.reproduced and result.finished and result.notes() == []
    # the same game as format 2 wrote it, before the assault's dice were recorded, replays
    # compared without them, and the replay says so once
    old = older_format(path.read_text(), 2)
    assert '"hit_on"' not in old and '"event":"assault vehicle"' in old
    path.write_text(old, encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.finished and result.older_format == 2
    (note,) = result.notes()
    assert "'kriegsspiel-record/2'" in note and "the dice of an assault on a vehicle" in note


def test_every_event_the_game_logs_is_one_a_record_may_hold() -> None:
    """Each name the engine logs an event by (rare ones too: a shockwave, no escape) has its
    model, so that no record play writes is refused; and no model names an event never
    logged."""
    code = "\n".join(p.read_text() for p in (SRC / "rulesets" / "bolt_action").rglob("*.py"))
    logged = set(re.findall(r'\blog\(\s*"([^"]+)"', code))
    logged |= set(re.findall(r'event(?:: str)? = "([^"]+)"', code))
    logged |= set(re.findall(r'event="([^"]+)"', code))
    logged |= {"react", "ambush", "retain", "friendly fire"}  # logged by their action's kind
    from typing import get_args

    from kriegsspiel.rulesets.bolt_action.vehicle_damage import CheckKind

    logged |= set(get_args(CheckKind))  # logged by the check's kind (state.log_checks)
    assert logged == set(EVENTS)


# ----------------------------------------------------------------------------- 1. the first difference
def test_a_replay_names_the_first_line_where_it_parts_from_the_record(tmp_path: Path) -> None:
    """Another seed parts at the start event (line 2), not at a decision the other dice
    made illegal far later; a decision not legal before any difference is named at its
    own line; a line the game did not write, or lines after its end, are where they part."""
    lines = sample_text().splitlines()
    head = json.loads(lines[0])
    reseeded = written(tmp_path / "seed.jsonl", [dumps({**head, "seed": 99}), *lines[1:]])
    result = record.replay(reseeded)
    assert not result.reproduced and result.first_difference == 2
    assert '"seed":2' in result.expected and '"seed":99' in result.actual

    shot = line_of("shoot")  # a die's outcome changed: the first difference is that line
    row = json.loads(lines[shot - 1])
    assert (
        record.replay(changed(tmp_path / "hits.jsonl", shot, hits=row["hits"] + 1)).first_difference
        == shot
    )

    order = line_of("order")
    illegal = record.replay(changed(tmp_path / "illegal.jsonl", order, unit=99))
    assert illegal.first_difference == order
    assert illegal.actual == "(not legal here: there is no unit 99)"

    # a line the game never wrote, before an illegal decision: parts at that line
    inserted = [*lines[: order - 1], lines[1], *lines[order - 1 :]]  # the start again
    bad = json.loads(inserted[order])
    inserted[order] = dumps({**bad, "unit": 99})
    before = record.replay(written(tmp_path / "inserted.jsonl", inserted))
    assert before.first_difference == order and before.expected == lines[1]
    assert before.actual.startswith(f"(a decision is due; the record's next, line {order + 1}")

    after = record.replay(written(tmp_path / "after.jsonl", [*lines, lines[-1]]))
    assert after.first_difference == len(lines) + 1 and after.actual == "(end: the game is over)"

    said = replay_cli(reseeded)
    assert said.returncode == 1 and "first difference at line 2:" in said.stdout


# ----------------------------------------------------------------------------- 2. the final newline
def test_a_record_without_its_final_newline_reproduces_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "no-newline.jsonl"
    path.write_text(sample_text()[:-1], encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.finished and not result.final_newline
    said = replay_cli(path)
    assert said.returncode == 0, said.stdout + said.stderr
    assert "reproduced" in said.stdout and "lacks its newline" in said.stdout


def test_a_record_beginning_with_a_byte_order_mark_reproduces_and_says_so(tmp_path: Path) -> None:
    """An editor that saves UTF-8 "with BOM" (as YAML files are taken with one) once made a
    record "not JSON (Unexpected UTF-8 BOM (decode using utf-8-sig))", in Python's words."""
    path = tmp_path / "bom.jsonl"
    path.write_text("\ufeff" + sample_text(), encoding="utf-8")
    result = record.replay(path)
    assert result.reproduced and result.finished and result.bom
    said = replay_cli(path)
    assert said.returncode == 0, said.stdout + said.stderr
    assert "reproduced" in said.stdout and "byte-order mark (BOM)" in said.stdout
    assert "utf-8-sig" not in said.stdout + said.stderr


# ----------------------------------------------------------------------------- 5. every line checked
@pytest.mark.parametrize(
    ("event", "fields", "said"),
    [
        ("order", {"event": "bogus"}, "field event: there is no event 'bogus' in a game's record"),
        (
            "order",
            {"event": "oder"},
            "field event: there is no event 'oder' in a game's record (did you mean 'order'?)",
        ),
        ("order", {"event": None}, "field event: missing"),
        ("order", {"unit": None}, "field unit: missing: it must be given here"),
        ("order", {"turn": "one"}, "field turn: should be a whole number, not the text 'one'"),
        ("order", {"unit": "17"}, "field unit: should be a whole number, not the text '17'"),
        ("order", {"to": [1, 2, 3]}, "field to: must have at most 2 items, not 3"),
        ("order", {"colour": "red"}, "field colour: there is no such field here"),
        ("draw", {"side": 1.0}, "field side: should be a whole number, not 1.0"),
        ("move", {"run": 0}, "field run: should be true or false, not 0"),
        ("shoot", {"hits": "2"}, "field hits: should be a whole number, not the text '2'"),
        ("start", {"seed": None}, "field seed: missing: it must be given here"),
        ("game over", {"score": [1]}, "field score.1: missing: it must be given here"),
    ],
)
def test_a_line_is_checked_as_the_event_it_names(
    event: str, fields: dict[str, object], said: str, tmp_path: Path
) -> None:
    number = line_of(event)
    with pytest.raises(DataFileError, match=re.escape(f"line {number}, {said}")):
        record.replay(changed(tmp_path / "changed.jsonl", number, **fields))


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"seed": "2"}, "line 1, field seed: should be a whole number, not the text '2'"),
        ({"armies": "one list"}, "line 1, field armies: should be a list, not the text 'one list'"),
    ],
)
def test_a_header_field_of_the_wrong_kind_is_a_bad_file(
    fields: dict[str, object], said: str, tmp_path: Path
) -> None:
    path = changed(tmp_path / "head.jsonl", 1, **fields)
    with pytest.raises(DataFileError, match=re.escape(said)):
        record.replay(path)


def test_a_bad_line_is_named_with_exit_status_2(tmp_path: Path) -> None:
    number = line_of("order")
    said = replay_cli(changed(tmp_path / "changed.jsonl", number, unit="17"))
    assert said.returncode == 2 and "Traceback" not in said.stderr
    assert (
        f"changed.jsonl: line {number}, field unit: should be a whole number, not the text '17'"
        in (said.stderr)
    )


# ----------------------------------------------------------------------------- 6. cut short
def test_a_record_cut_short_anywhere_reproduces_as_far_as_it_goes(tmp_path: Path) -> None:
    """Cut after its header, after any line, or in the middle of its last line (as a
    process stopped while writing leaves it), a record reproduces as far as it goes and
    says where it stops; blank lines at its end are passed over."""
    text = sample_text()
    lines = text.splitlines()
    head_only = record.replay(written(tmp_path / "head.jsonl", lines[:1]))
    assert head_only.reproduced and not head_only.finished and head_only.events == 0
    assert "holds no event after its header" in head_only.notes()[0]
    for keep in (2, 5, line_of("shoot"), len(lines) - 1):  # also amid an order's outcome
        short = record.replay(written(tmp_path / f"{keep}.jsonl", lines[:keep]))
        assert short.reproduced and not short.finished and short.events == keep - 1, keep

    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[:15000], encoding="utf-8")
    whole = text[:15000].count("\n")
    result = record.replay(cut)
    assert result.reproduced and not result.finished and result.cut_line == whole + 1
    assert result.events == whole - 1
    said = replay_cli(cut)
    assert said.returncode == 0, said.stderr
    assert (
        f"the last line, {whole + 1}, is cut short (the file ends mid-line, as when writing "
        f"it was stopped); reproduced up to line {whole}." in said.stdout
    )

    blank = record.replay(written(tmp_path / "blank.jsonl", [*lines, "", "  "]))
    assert blank.reproduced and blank.finished and blank.blank_at_end == 2


@pytest.mark.parametrize(
    ("lines", "end", "said"),
    [
        (lambda ls: [*ls[:9], "", *ls[9:]], "\n", "line 10: blank; a record holds an event a line"),
        (lambda ls: [*ls[:9], ls[9][:20], *ls[10:]], "\n", "line 10: not JSON"),
        (lambda ls: [*ls[:-1], ls[-1][:20]], "\n", "line {n}: not JSON"),
        (lambda ls: [ls[0][:50]], "", "the file is cut short within its header"),
        (lambda ls: [], "", "the file is empty"),
        (lambda ls: [*ls[:9], "[" * 100_000, *ls[9:]], "\n", "line 10: not JSON (nested too deep)"),
        (
            lambda ls: [*ls[:9], '{"event": "draw", "side": ' + "9" * 5000 + "}", *ls[9:]],
            "\n",
            "line 10: not JSON (Exceeds the limit (4300 digits) for integer string conversion",
        ),
    ],
    ids=[
        "blank-amid",
        "broken-amid",
        "broken-last-with-newline",
        "cut-header",
        "empty",
        "nested-too-deep",
        "number-too-long",
    ],
)
def test_a_broken_line_that_is_not_a_cut_is_a_bad_file(
    lines: object, end: str, said: str, tmp_path: Path
) -> None:
    """Only the last line, with no newline after it, can be where the writing stopped."""
    assert callable(lines)
    kept = lines(sample_text().splitlines())
    path = written(tmp_path / "broken.jsonl", kept, end)
    with pytest.raises(DataFileError, match=re.escape(said.format(n=len(kept)))):
        record.replay(path)
    told = replay_cli(path)
    assert told.returncode == 2 and "Traceback" not in told.stderr


def test_a_file_that_is_not_text_is_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(b'{"format":\xff}\n')
    with pytest.raises(
        DataFileError,
        match=re.escape("is not text (line 1: byte 11 is not UTF-8; was it saved as Latin-1"),
    ):
        record.replay(path)


# ----------------------------------------------------------------------------- the account again
def test_replay_account_tells_the_game_as_play_did_and_stops_where_it_parts(
    tmp_path: Path,
) -> None:
    """``replay --account`` tells the recorded game turn by turn, as ``play`` told it (its
    opening lines: scenario, sides and how it is won; the same lines, and the result), then
    the verdict; a record that parts from the replay is told only as far as the two agree."""
    from kriegsspiel.render.game_account import account, result_line

    path = tmp_path / "game.jsonl"
    path.write_text(sample_text(), encoding="utf-8")
    game = play_game(build_matchup("konflikt47", "meeting-engagement", [], "tactical,tactical"), 2)
    opening = [
        "Meeting Engagement at Les Hauts Champs — Konflikt '47, seed 2",
        "Side A: Schwerefeld Battlegroup (tactical)   Side B: US Army Tesla Company (tactical)",
        "6 turns, a seventh on a D6 roll of 4+; the side with more enemy units destroyed wins "
        "(a side wiped out loses).",
    ]
    told = opening + account(game.events, game.units)
    said = run_cli("replay", str(path), "--account", timeout=120)
    assert said.returncode == 0, said.stderr
    lines = said.stdout.splitlines()
    assert lines[: len(told)] == told
    assert lines[len(told)] == result_line(game)
    assert lines[-1].endswith(f"reproduced ({len(game.events)} events identical).")

    shot = line_of("shoot")
    hits = json.loads(sample_text().splitlines()[shot - 1])["hits"]
    parted = run_cli("replay", str(changed(tmp_path / "hits.jsonl", shot, hits=hits + 1)),
                     "--account", timeout=120)  # fmt: skip
    assert parted.returncode == 1
    before = opening + account(game.events[: shot - 2], game.units)
    assert parted.stdout.startswith("\n".join(before) + "\n")
    assert f"first difference at line {shot}:" in parted.stdout
    assert not any(line.startswith("Result:") for line in parted.stdout.splitlines())


# ----------------------------------------------------------------------------- a game in progress
def test_a_game_a_person_stopped_is_told_as_in_progress_with_its_resume(tmp_path: Path) -> None:
    """A record with a person at a seat that stops before the game's end is a game in
    progress ('quit' saves it so), and its replay says so with the command that goes on
    with it, not that it was cut short; the same record of two AI players was cut short."""
    lines = sample_text().splitlines()
    head = json.loads(lines[0])
    keep = line_of("order", after=line_of("order"))  # (stopped at a later decision)
    playing = written(tmp_path / "my game.jsonl",
                      [dumps({**head, "players": ["human", "tactical"]}), *lines[1:keep]])  # fmt: skip
    result = record.replay(playing)
    assert result.reproduced and result.in_progress()
    said = replay_cli(playing)
    assert said.returncode == 0, said.stderr
    assert (
        f"{playing}: a game in progress, stopped in turn 1 (a person is playing it): go on "
        f"with kriegsspiel play --resume '{playing}'" in said.stdout
    )
    assert "cut short" not in said.stdout

    ai = record.replay(written(tmp_path / "ai.jsonl", lines[:keep]))
    assert ai.reproduced and not ai.in_progress()
    assert "the record stops before the game's end (it was cut short)." in ai.notes()
    finished = record.replay(written(tmp_path / "over.jsonl",
                             [dumps({**head, "players": ["human", "tactical"]}), *lines[1:]]))  # fmt: skip
    assert finished.reproduced and finished.finished and not finished.in_progress()
    assert finished.notes() == []


# ----------------------------------------------------------------------------- where lines differ
def test_a_line_written_with_other_spacing_is_shown_where_it_differs(tmp_path: Path) -> None:
    """A header or an event re-saved with spaces holds the same fields and values: the
    replay marks the first character that differs, shows the long header round it, and says
    the content is the same; an event with another value names the field."""
    lines = sample_text().splitlines()
    head = json.loads(lines[0])
    spaced = written(tmp_path / "spaced.jsonl", [lines[0].replace('"players":', '"players": '),
                                                 *lines[1:]])  # fmt: skip
    column = lines[0].index('"players":') + len('"players":')
    said = replay_cli(spaced)
    assert said.returncode == 1
    out = said.stdout.splitlines()
    assert out[0] == f"{spaced}: does NOT reproduce; first difference at line 1:"
    recorded, replayed, marker = out[1:4]
    assert recorded.startswith("  recorded: …") and replayed.startswith("  replayed: …")
    assert '"players": ["tactical","tactical"]' in recorded
    assert '"players":["tactical","tactical"]' in replayed
    at = marker.index("^")
    assert recorded[at] == " " and replayed[at] == "["  # the marker is under the difference
    assert marker[at:] == f"^ character {column + 1}: the first that differs"
    assert f"({len(lines[0]) + 1:,} characters)" in recorded
    assert "the same fields and values, written otherwise (spaces, or the fields' order)" in out[4]

    event = line_of("react")
    row = json.loads(lines[event - 1])
    respaced = written(tmp_path / "event.jsonl",
                       [*lines[: event - 1], json.dumps(row), *lines[event:]])  # fmt: skip
    told = replay_cli(respaced).stdout.splitlines()
    assert told[1] == f"  recorded: {json.dumps(row)}" and told[2] == f"  replayed: {dumps(row)}"
    first = json.dumps(row).index(": ") + 1  # (the first space json.dumps puts in)
    assert told[3] == " " * (12 + first) + f"^ character {first + 1}: the first that differs"

    shot = line_of("shoot")
    hits = json.loads(lines[shot - 1])["hits"]
    other = replay_cli(changed(tmp_path / "hits.jsonl", shot, hits=hits + 1)).stdout
    assert "  fields that differ: hits" in other.splitlines()
    assert head["format"]  # (the header is as play wrote it)


# ----------------------------------------------------------------------------- the header's ruleset
def test_a_header_naming_the_wrong_ruleset_is_told_at_line_1(tmp_path: Path) -> None:
    """Both lists are for Konflikt '47 and the header names Bolt Action: the header's field
    is what is wrong, told at line 1 with what it should be and what a record may name (not
    a list's line and the --ruleset a command takes)."""
    lines = sample_text().splitlines()
    head = json.loads(lines[0])
    wrong = written(
        tmp_path / "o8.jsonl", [dumps({**head, "ruleset": "bolt-action-1"}), *lines[1:]]
    )
    said = replay_cli(wrong)
    assert said.returncode == 2 and said.stdout == ""
    assert said.stderr.strip() == (
        f"kriegsspiel: error: {wrong}: line 1, field ruleset: 'bolt-action-1' (Bolt Action "
        "1st edition), but the record's two army lists are for Konflikt '47: it should be "
        "'konflikt47' (a record's ruleset is 'konflikt47' or 'bolt-action-1', the edition of "
        "its lists)."
    )
    assert "--ruleset" not in said.stderr and "army 1" not in said.stderr
