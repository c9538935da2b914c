"""Every rule listed in docs/rules names tests that really exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs" / "rules").glob("*.md"))
GUIDES = sorted((ROOT / "docs").glob("*.md"))
TEST_NAMES = {
    name
    for path in (ROOT / "tests").glob("test_*.py")
    for name in re.findall(r"^def (test_\w+)", path.read_text(), flags=re.M)
}


@pytest.mark.parametrize("doc", DOCS + GUIDES, ids=[d.name for d in DOCS + GUIDES])
def test_rules_docs_cite_existing_tests(doc: Path) -> None:
    cited = set(re.findall(r"`(test_\w+)", doc.read_text()))
    missing = cited - TEST_NAMES
    assert not missing, f"{doc.name} cites tests that do not exist: {sorted(missing)}"


RULE_PAGES = [d for d in DOCS if d.name != "bolt-action-family.md"]


def rule_problems(text: str) -> list[str]:
    """What is wrong with a rules page: each rule is a `### name` under a `##` section, with
    one non-empty `**Source:**` line and a `**Tested by**` line citing at least one test that
    exists; no two rules share a name (their anchors stay stable); no rule is left in a
    table."""
    problems = []
    names: list[str] = []
    for block in re.split(r"^(?=#{2,3} )", text, flags=re.M):
        if re.search(r"^\| rule \|", block, flags=re.M):
            problems.append(f"a rule table is left: {block.splitlines()[0]}")
        if not block.startswith("### "):
            continue
        name = block.splitlines()[0][4:].strip()
        names.append(name)
        paragraphs = [" ".join(p.split()) for p in block.split("\n\n")]
        sources = [p for p in paragraphs if p.startswith("**Source:**")]
        tested = [p for p in paragraphs if p.startswith("**Tested by**")]
        if len(sources) != 1 or not sources[0].removeprefix("**Source:**").strip():
            problems.append(f"{name}: no source (one **Source:** paragraph, not empty)")
        if len(tested) != 1:
            problems.append(f"{name}: no test (one **Tested by** paragraph)")
            continue
        cited = re.findall(r"`(test_\w+)`", tested[0])
        if not cited:
            problems.append(f"{name}: no test named in {tested[0]!r}")
        if missing := sorted(set(cited) - TEST_NAMES):
            problems.append(f"{name}: cites tests that do not exist: {missing}")
        said = [p for p in paragraphs[1:] if p and not p.startswith(("**Source:**", "**Tested"))]
        if not said:
            problems.append(f"{name}: does not say what the engine does")
    if not names:
        problems.append("no rules")
    problems += [f"two rules named {n!r}" for n in sorted({n for n in names if names.count(n) > 1})]
    return problems


@pytest.mark.parametrize("doc", RULE_PAGES, ids=lambda d: d.name)
def test_every_rule_row_has_a_source_and_a_test(doc: Path) -> None:
    problems = rule_problems(doc.read_text())
    assert not problems, f"{doc.name}: " + "; ".join(problems)


def test_a_rule_without_a_source_or_a_real_test_is_found() -> None:
    """The check above fails a copy broken each way it looks for."""
    text = (ROOT / "docs" / "rules" / "konflikt47.md").read_text()
    assert not rule_problems(text)
    rule = "### Point blank\n\n"
    assert rule in text
    point_blank = text.split(rule, 1)[1].split("\n### ", 1)[0]
    source = next(p for p in point_blank.split("\n\n") if p.startswith("**Source:**"))
    tested = next(p for p in point_blank.split("\n\n") if p.startswith("**Tested by**"))

    def with_rule(block: str) -> str:
        return text.replace(rule + point_blank, block, 1)

    broken = [  # (what the check says, a copy broken so)
        ("no source", with_rule(rule + point_blank.replace(source, "**Source:**"))),
        ("no source", with_rule(rule + point_blank.replace(source + "\n\n", ""))),
        ("no test", with_rule(rule + point_blank.replace(tested, "**Tested by** nothing yet"))),
        ("no test", with_rule(rule + point_blank.replace("\n\n" + tested, ""))),
        ("do not exist", with_rule(rule + point_blank.replace(tested, "**Tested by** `test_nix`"))),
        ("does not say", with_rule(rule + point_blank.split("\n\n", 1)[1])),
        ("two rules named", text.replace("### Natural 1\n", "### Point blank\n", 1)),
        ("table is left", text + "\n## More\n\n| rule | what we do | source | test |\n"),
    ]
    for said, copy in broken:
        assert copy != text, said
        problems = rule_problems(copy)
        assert any(said in p for p in problems), (said, problems)


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings (lower case, punctuation dropped, spaces
    as hyphens)."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def test_links_into_the_rules_pages_find_their_heading() -> None:
    """A link to a rule or section of a rules page (from the README, a guide or a rules
    page) names an anchor one of its headings gives."""
    pages = [ROOT / "README.md", *GUIDES, *DOCS]
    links = 0
    for page in pages:
        for target, anchor in re.findall(r"\]\(([\w./-]*)#([\w-]+)\)", page.read_text()):
            linked = (page.parent / target).resolve() if target else page
            if linked.parent != ROOT / "docs" / "rules":
                continue
            links += 1
            assert anchor in _anchors(linked), f"{page.name}: no heading {target}#{anchor}"
    assert links >= 3


def test_every_ruleset_has_a_rules_document() -> None:
    names = {d.stem for d in DOCS}
    assert {"konflikt47", "bolt-action-1", "iron-cross", "house-clearing"} <= names


def test_the_python_example_of_the_simulation_guide_runs() -> None:
    """docs/simulation.md's "From Python" loop, run as a reader would paste it."""
    import subprocess
    import sys

    text = (ROOT / "docs" / "simulation.md").read_text()
    code = text.split("## From Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "german-schwerefeld-battlegroup",
        "us-tesla-company",
    ]
    assert all(re.search(r": \d+% \(\d+%-\d+%\)$", line) for line in lines), lines


def test_the_guides_example_of_one_evaluation_kept_and_exported_runs(tmp_path: Path) -> None:
    """The second "From Python" example, in a folder of its own (it writes a results
    file): run twice, the second run reads its games back and prints the same."""
    import subprocess
    import sys

    text = (ROOT / "docs" / "simulation.md").read_text()
    code = text.split("## From Python", 1)[1].split("```python\n")[2].split("```", 1)[0]
    said = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=300, check=False, cwd=tmp_path)  # fmt: skip
        assert done.returncode == 0, done.stderr
        said.append(done.stdout)
    first, last = said[0].splitlines()
    assert re.fullmatch(r"A wins \d+ of 10: \d+%-\d+%", first), first
    assert re.fullmatch(r"10 games; game 0 was played with seed \d+", last), last
    assert said[0] == said[1]


def test_the_sweep_file_of_the_simulation_guide_loads_as_it_is(tmp_path: Path) -> None:
    """docs/simulation.md's sweep file, pasted into a file: every list and variant is built
    (no placeholder, no weapon the edition's chart lacks)."""
    from kriegsspiel.sim.sweep import load_sweep

    text = (ROOT / "docs" / "simulation.md").read_text()
    block = text.split("## Sweeps", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "sweep.yaml").write_text(block)
    sweep = load_sweep(str(tmp_path / "sweep.yaml"))
    assert [column.label for column in sweep.columns] == [
        "us-tesla-company",
        "german-schwerefeld-battlegroup",
    ]
    assert [row.label.split("[", 1)[-1] for row in sweep.rows[2:]] == [
        "second Panzer IV for the walker]",
        "without the walker]",
        "a second Panzerschreck team]",
    ]


ODDS_RUNS = {  # odds questions that between them give every key a ruleset's odds report
    "iron-cross": [
        "shoot -r iron-cross --range 12",
        "shoot -r iron-cross --range 30 -t vehicle --penetration 10 --armour 8",
        "close-combat -r iron-cross --defender-cover cover",
    ],
    "house-clearing": [
        "shoot -r house-clearing -w rifle --range 12 --weapon-skill 100 --visible 3 --target-initiative 2",
        "shoot -r house-clearing -w smg --weapon-skill 100 --visible 3 --range 5 --auto",
        "shoot -r house-clearing -w grenade --weapon-skill 100 --visible 3 --range 3",
        "figure -r house-clearing",
    ],
}


@pytest.mark.parametrize("ruleset", sorted(ODDS_RUNS))
def test_how_the_odds_are_reported_names_the_json_keys(ruleset: str) -> None:
    """Every key "How the odds are reported" names is a top-level key of `odds --json`."""
    import json

    from typer.testing import CliRunner

    from kriegsspiel.cli import app

    keys: set[str] = set()
    for args in ODDS_RUNS[ruleset]:
        done = CliRunner().invoke(app, ["odds", *args.split(), "--json"])
        assert done.exit_code == 0, done.output
        keys |= set(json.loads(done.output))
    section = (ROOT / "docs" / "rules" / f"{ruleset}.md").read_text()
    section = section.split("## How the odds are reported", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([a-z_]+)`", section)) - {"shoot", "figure"}
    assert named and named <= keys, f"not in --json: {sorted(named - keys)}"


def test_the_exported_columns_are_those_the_docs_list(tmp_path: Path) -> None:
    """docs/simulation.md, "Exported games", lists every column `results --export` writes,
    in its order, and every key of a unit in it."""
    import csv
    import io
    import json

    from conftest import run_cli

    text = (ROOT / "docs" / "simulation.md").read_text()
    section = text.split("### Exported games", 1)[1].split("\n## ", 1)[0]
    documented = [
        name
        for row in section.splitlines()
        if row.startswith("| `")
        for name in re.findall(r"`(\w+)`", row.split("|")[1])
    ]
    store = str(tmp_path / "r.sqlite")
    played = run_cli("evaluate", "--games", "1", "--players", "random,random", "--workers", "1",
                     "--results", store)  # fmt: skip
    assert played.returncode == 0, played.stderr
    exported = run_cli("results", "--results", store, "--export", "csv")
    assert exported.returncode == 0, exported.stderr
    header, row = list(csv.reader(io.StringIO(exported.stdout)))
    assert documented == header
    units_row = next(r for r in section.splitlines() if r.startswith("| `units`"))
    told = set(re.findall(r"`(\w+)` \(", units_row)) | {"name", "points"}
    assert set(json.loads(row[header.index("units")])[0]) == told


def _guide_example(section: str) -> str:
    """Run the first Python example under ``section`` of docs/environment.md as a reader
    would paste it; its output."""
    import subprocess
    import sys

    text = (ROOT / "docs" / "environment.md").read_text()
    code = text.split(section, 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_python_example_of_the_environment_guide_runs() -> None:
    """docs/environment.md's demonstrations example."""
    out = _guide_example("## Learning from the AI")
    assert re.fullmatch(r"\d+ steps from 3 games; \d+ choices skipped\n", out)


def test_the_openspiel_example_of_the_environment_guide_runs() -> None:
    """docs/environment.md's OpenSpiel example: MCTS at the first decision, its order said."""
    out = _guide_example("## OpenSpiel")
    assert out.count("\n") == 1 and ": " in out, out


def test_every_procedure_setting_of_a_rules_file_is_documented() -> None:
    """docs/armies-and-scenarios.md's table of the ``procedure`` settings names each field
    of the data's Procedure, and no field it does not have."""
    from kriegsspiel.rulesets.bolt_action.data import Procedure

    text = (ROOT / "docs" / "armies-and-scenarios.md").read_text()
    section = text.split("## House rules: the procedure settings", 1)[1]
    documented = set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))
    assert documented == set(Procedure.model_fields) - {"source"}
