"""Take the README's screenshots of the play aid again, as the page now reads.

python scripts/aid_screenshots.py     # about half a minute

It starts ``kriegsspiel aid`` (Konflikt '47's sample armies, as the README's first
command, seeded dice, a save in a temporary folder) on a free port of 127.0.0.1 (never the aid's usual 8047, which
a game at the table may be using), drives a short game in headless Chromium through
Playwright (``scripts/install-test-browser``; or ``KRIEGSSPIEL_CHROMIUM``), the clicks a
player makes, and writes over docs/img/play-aid.png (the bag, a die in hand, the units
with their odds, an order test's reasons unfolded) and docs/img/play-aid-odds.png ("Odds
at the table": a pinned squad's shot at 18" in soft cover, an assault on a squad that
stands and fires), which the README's captions describe. The window is 1200 by 820 pixels
at scale 1; the fonts are the machine's (the same machine draws the same pictures). Run it whenever the page changes.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "img"
# the README's pictures of the play aid, each with what it shows
SCREENSHOTS = {
    "play-aid.png": "the bag, a die in hand, each unit with its odds",
    "play-aid-odds.png": "a pinned squad's shot and an assault on a squad that stands and fires",
}
SEED = 3  # the aid's dice: its first two draws bring out a die of each side
WIDTH, HEIGHT = 1200, 820  # the browser's window, in pixels (at scale 1)
USUAL_PORT = 8047  # the aid's default: a game at the table may be using it
FLAGS = ["--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run"]
# the units of the sample armies, as the page numbers them: side A's (Schwerefeld
# Battlegroup) squads, side B's (US Army Tesla Company) HQ and squads
FIRST_GRENADIERS, SECOND_GRENADIERS = 1, 2
US_HQ, FIRST_RIFLES, SECOND_RIFLES = 9, 10, 11
# the order each side's first die is given: side A's assaulters Run, side B's HQ advances
FIRST_ORDERS = {0: (SECOND_GRENADIERS, "Run"), 1: (US_HQ, "Advance")}


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on (never the aid's usual one)."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port != USUAL_PORT:
            return port


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """``kriegsspiel aid`` served on a free port until the block ends; its address."""
    port = free_port()
    command = [
        sys.executable, "-m", "kriegsspiel", "aid", "--ruleset", "konflikt47",
        "--seed", str(SEED), "--port", str(port), "--no-open", "--new",
        "--save", str(folder / "aid.jsonl"),
    ]  # fmt: skip
    print(" ".join(["kriegsspiel", *command[3:]]), file=sys.stderr)
    env = {**os.environ, "NO_COLOR": "1"}
    server = subprocess.Popen(
        command, cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    address = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(address + "api/state", timeout=2) as answer:
                    json.load(answer)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    said = server.stdout.read() if server.stdout else ""
                    sys.exit(f"the play aid did not start:\n{said}")
                time.sleep(0.2)
        yield address
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


def wait_text(page: Any, test_id: str, text: str) -> None:
    """Wait until the element ``test_id`` says ``text`` (the server has answered)."""
    page.wait_for_function(
        "([id, text]) => (document.querySelector(`[data-testid='${id}']`)?.textContent ?? '')"
        ".includes(text)",
        arg=[test_id, text],
    )


def draw(page: Any) -> int:
    """Draw a die; the side whose it is."""
    page.get_by_test_id("draw").click()
    hand = page.get_by_test_id("in-hand")
    hand.wait_for()
    return 0 if "side0" in (hand.get_attribute("class") or "") else 1


def count(page: Any, what: str, uid: int, to: int) -> None:
    """Click "+" or "−" on a unit's ``what`` (pins, models) until it counts ``to``, each
    click's answer awaited (a click sends the count it sees)."""
    shown = page.get_by_test_id(f"{what}-{uid}")
    while (now := int(shown.inner_text())) != to:
        page.get_by_test_id(f"{what}-{'up' if to > now else 'down'}-{uid}").click()
        page.wait_for_function(
            "([id, was]) => document.querySelector(`[data-testid='${id}']`)?.textContent !== was",
            arg=[f"{what}-{uid}", str(now)],
        )


def play(page: Any) -> None:
    """The game the pictures show: a Run and a Fire order given, pins and losses counted,
    a third die in hand."""
    given = set()
    for _ in FIRST_ORDERS:
        side = draw(page)
        if side in given:
            sys.exit(
                "the aid's first two dice are of one side: the dice have changed; choose "
                "another SEED in scripts/aid_screenshots.py"
            )
        given.add(side)
        uid, order = FIRST_ORDERS[side]
        page.get_by_test_id(f"give-{order}-{uid}").click()
        wait_text(page, f"order-{uid}", order)
    count(page, "pins", FIRST_GRENADIERS, 2)
    count(page, "pins", FIRST_RIFLES, 1)
    count(page, "models", FIRST_RIFLES, 7)
    draw(page)
    page.get_by_test_id(f"order-odds-{FIRST_RIFLES}").locator("summary").click()


def ask_odds(page: Any) -> None:
    """The pinned squad's shot at 18" in soft cover; the squad given Run assaults a
    squad that stands and fires, and the attackers are said to have won."""
    page.get_by_test_id("shot-firer").select_option(str(FIRST_GRENADIERS))
    page.get_by_test_id("shot-target").select_option(str(SECOND_RIFLES))
    page.get_by_test_id("shot-range").fill("18")
    page.get_by_test_id("shot-range").dispatch_event("change")
    page.get_by_test_id("shot-cover").select_option("soft")
    page.get_by_test_id("assault-attacker").select_option(str(SECOND_GRENADIERS))
    page.get_by_test_id("assault-defender").select_option(str(FIRST_RIFLES))
    page.get_by_test_id("assault-defender-mode").select_option("stand-and-fire")
    wait_text(page, "assault-chances", "assaulters stopped")
    wait_text(page, "shot-read", "firer's pins 2")
    page.get_by_test_id("fought-left").fill("6")
    page.evaluate("document.activeElement.blur()")


def main() -> int:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sys.exit("no Playwright to drive the browser: pip install -e '.[test]'")
    chromium = os.environ.get("KRIEGSSPIEL_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        sys.exit("no Chromium to take the screenshots: run scripts/install-test-browser")
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(Path(folder)) as address,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS)
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=1)
        problems: list[str] = []
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        page.goto(address)
        page.get_by_test_id("bag").wait_for()
        play(page)
        ask_odds(page)
        if page.get_by_test_id("error").is_visible():
            sys.exit(f"the page refused a step: {page.get_by_test_id('error').inner_text()}")
        if problems:
            sys.exit(f"the page raised: {problems}")
        shots = list(SCREENSHOTS)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(IMAGES / shots[0]))
        # (the header, kept at the window's top, would cover the panel's top edge)
        page.add_style_tag(content="header { position: static; }")
        page.get_by_test_id("odds-panel").screenshot(path=str(IMAGES / shots[1]))
        browser.close()
    for name in SCREENSHOTS:
        print(f"drew docs/img/{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
