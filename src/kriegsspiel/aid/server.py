"""The play aid's web server: the page, and a small JSON API that takes each step.

The only module that knows FastAPI. A step's answer is the whole game as
:func:`.view.view` gives it; a question of odds (:mod:`.questions`) changes nothing. A
refused step or question is a 409 whose ``error`` says why, a malformed request a 422
whose ``error`` names the field; neither changes the game.
"""

from __future__ import annotations

import hmac
import json
import threading
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.security import APIKeyHeader
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from kriegsspiel.aid import questions
from kriegsspiel.aid.questions import AssaultAsked, ShotAsked, VehicleMove
from kriegsspiel.aid.session import AidSession
from kriegsspiel.aid.tracker import OUTCOMES, AidError, Outcome, Tracker
from kriegsspiel.aid.view import view
from kriegsspiel.errors import sentence
from kriegsspiel.rulesets.bolt_action.shot import Cover, Facing

_STATIC = {"aid.js": "text/javascript", "aid.css": "text/css"}


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


# A unit is named by its uid, an integer: never true (1), 2.0 or "2" (strict)
UnitId = Annotated[int, Field(strict=True, description="A unit's uid (GET /api/state).")]
UNIT_FIELDS = frozenset({"unit", "firer", "target", "attacker", "defender", "keep"})
# inches as measured: a number, never NaN or infinity
Inches = Annotated[float, Field(ge=0, le=1000, allow_inf_nan=False)]


ONE_SHOT_FIRED = (  # (the shot's and the assault's field: one meaning)
    "Its one-shot anti-tank weapons (Panzerfausts) fired; null: as the players said on its "
    "card (POST /api/one-shot-fired)."
)


class OrderBody(_Body):
    unit: UnitId
    order: str
    roll: bool = Field(True, description="The aid rolls the order test (else give outcome).")
    outcome: Outcome | None = None
    face: str | None = None
    officer: str | None = None
    pins_lost: int | None = None


class DrawBody(_Body):
    side: Annotated[int, Field(strict=True)] | None = Field(
        None,
        description="The side whose die the players drew from their own bag (0 or 1); "
        "left out, the aid draws one.",
    )


class TakeDieBody(_Body):
    unit: UnitId
    face: str
    why: Literal["reaction", "damage"]


class NearBody(_Body):
    unit: UnitId
    officer: str | None = Field(None, description="A live officer of its side; null: none.")


class OwnDiceBody(_Body):
    unit: UnitId
    own: bool = Field(description="The players roll its order test themselves.")


class OneShotBody(_Body):
    unit: UnitId
    fired: bool = Field(description="Its one-shot anti-tank weapons (Panzerfausts) are fired.")


class PinsBody(_Body):
    unit: UnitId
    pins: int


class ModelsBody(_Body):
    unit: UnitId
    models: int


class WeaponCount(_Body):
    name: str = Field(min_length=1)
    count: int = Field(ge=0)


class ShotAtBody(_Body):
    unit: UnitId
    casualties: int = Field(0, description="Models lost (a vehicle's 1: knocked out).")
    pins: int = 0
    immobilised: bool = Field(False, description="A vehicle immobilised (again: knocked out).")
    halted: bool = Field(False, description="A vehicle's die turned Down (stunned, on fire).")
    flamed: bool = Field(False, description="A flamethrower hit it: a morale check is owed.")
    firer: UnitId | None = Field(None, description="The unit that fired (with its weapons).")
    weapons: list[WeaponCount] | None = Field(
        None,
        description="The weapons it fired, as the shot's odds gave them: a one-shot "
        "anti-tank weapon among them (a count of 1 or more) is marked fired in the same step.",
    )


class MoraleCheckBody(_Body):
    unit: UnitId
    roll: bool = Field(True, description="The aid rolls the check (else give passed).")
    passed: bool | None = None
    officer: str | None = None
    unowed: bool = Field(
        False,
        description="A check the aid does not know is owed (called for at the table): "
        "refused without it, so a stray click cannot destroy a unit.",
    )


class FoughtBody(_Body):
    attacker: UnitId
    defender: UnitId
    winner: Literal["attacker", "defender", "both"]
    left: int = Field(0, description="The winner's models left (both wiped out: 0).")
    stood_and_fired: bool = Field(
        False, description="The defenders stood and fired: their die is taken if it is not yet."
    )


class UnitBody(_Body):
    unit: UnitId


class EndTurnBody(_Body):
    keep: list[UnitId] = []
    roll: bool = Field(
        True,
        description="At the end of a last turn that rolls for another: the aid rolls the D6 "
        "(else give rolled).",
    )
    rolled: Annotated[int, Field(strict=True)] | None = Field(
        None, description="The D6 the players rolled for another turn (1 to 6)."
    )


class ShotBody(_Body):
    """A shot's odds: what the players measure and judge; the rest is read from the game."""

    firer: UnitId
    target: UnitId
    range: Inches = Field(description="Range in inches, as measured.")
    cover: Cover = "none"
    facing: Facing = "front"
    moving: bool | None = Field(None, description="Firing on the move (default: an Advance die).")
    target_down: bool | None = Field(
        None, description="The target Down (default: a Down die, this turn's or kept)."
    )
    indirect: bool = False
    ranged_in: bool = False
    target_immobilised: bool = False
    target_officer: str | None = None
    weapons: list[WeaponCount] | None = Field(
        None, description="The weapons fired (default: what the firers would fire)."
    )
    one_shot_fired: bool | None = Field(None, description=f"The firers': {ONE_SHOT_FIRED}")


class AssaultBody(_Body):
    """An assault's odds: what the players decide; the rest is read from the game."""

    attacker: UnitId
    defender: UnitId
    attacker_officer: str | None = None
    defender_officer: str | None = None
    attacker_mode: Literal["hand-to-hand", "point-blank"] = "hand-to-hand"
    defender_mode: Literal["hand-to-hand", "point-blank", "stand-and-fire"] = "hand-to-hand"
    attacker_cover: Cover = "none"
    vehicle_move: VehicleMove | None = None
    target_immobilised: bool = False
    from_inches: Inches | None = None
    one_shot_fired: bool | None = Field(None, description=f"The attackers': {ONE_SHOT_FIRED}")


PASSWORD_HEADER = "X-Aid-Password"


class _Locked(Exception):
    """A step asked without the aid's password (answered 401, nothing changed)."""


def _lock(password: str) -> Callable[[str | None], None]:
    """The check every step makes on a game served with a password. As a FastAPI security
    dependency it also tells the API page (``/api/docs``) which requests need the header,
    so "Authorize" there sends it."""
    header = APIKeyHeader(
        name=PASSWORD_HEADER,
        auto_error=False,
        description="The word given to kriegsspiel aid --password (steps only).",
    )

    def unlocked(given: str | None = Security(header)) -> None:
        if not hmac.compare_digest((given or "").encode(), password.encode()):
            said = "a wrong password" if given else "no password"
            raise _Locked(
                f"this play aid takes steps only with its password ({said} was given): "
                "the one given to kriegsspiel aid --password"
            )

    return unlocked


class _Game:
    """The one game the aid serves, and the lock that lets one request at a time read or
    change it (requests are served on several threads)."""

    def __init__(self, session: AidSession) -> None:
        self.session = session
        self.lock = threading.Lock()

    def answer(self, tracker: Tracker) -> dict[str, Any]:
        """A step's answer: the whole game, whether it may be undone, and its version."""
        return {
            **view(tracker, can_undo=len(self.session.steps) > 1),
            "undo_refused": self.session.undo_refused(),  # (why "Undo" is greyed; None: it may)
            "version": self.session.version,
        }

    def take(self, change: Callable[[Tracker], Tracker]) -> dict[str, Any]:
        """Take one step (``change``) and answer with the game after it."""
        with self.lock:
            return self.answer(self.session.step(change))

    def now(self) -> Tracker:
        """The game as it stands (to ask odds of: a question changes nothing)."""
        with self.lock:
            return self.session.now


def create_app(session: AidSession, password: str | None = None) -> FastAPI:
    """The web app of one game (``session``). With a ``password``, a request that would
    change the game (a step: every route of ``steps``) must carry it (header
    ``X-Aid-Password``); anyone may still watch the game and ask odds, which change
    nothing."""
    app = FastAPI(
        title="kriegsspiel play aid",
        docs_url="/api/docs",
        openapi_url="/api/openapi.json",
        redoc_url=None,
    )
    _answer_refusals(app)
    game = _Game(session)
    # (the routes in the order the API page lists them: the page and the game, the odds,
    # then the steps)
    app.include_router(_page_routes(app, game))
    app.include_router(_odds_routes(game))
    steps = APIRouter(dependencies=[Security(_lock(password))] if password is not None else [])
    _order_steps(steps, game)
    _casualty_steps(steps, game)
    _turn_steps(steps, game)
    app.include_router(steps)  # (after its routes: including copies them)
    return app


def _answer_refusals(app: FastAPI) -> None:
    """Answer every refused request the aid's way, a JSON ``error`` in words: a step without
    the password (401), a step the game refuses (409), a malformed request (422), a page
    that is not there or a method a route does not take."""

    @app.exception_handler(_Locked)
    async def locked(request: Request, exc: _Locked) -> JSONResponse:
        return _refusal(str(exc), 401)

    @app.exception_handler(AidError)
    async def refused(request: Request, exc: AidError) -> JSONResponse:
        field = {} if exc.field is None else {"field": exc.field}
        return _refusal(str(exc), 409, field)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for error in exc.errors():
            where = ".".join(str(p) for p in error["loc"] if p != "body") or "the request"
            problems.append(f"{where}: {_said(error)}")
        return _refusal("; ".join(problems), 422)

    @app.exception_handler(HTTPException)
    async def not_here(request: Request, exc: HTTPException) -> JSONResponse:
        """No such page, or a request it does not take (GET of a step): the aid's own
        answer, ``error`` saying what was asked and where the API is listed."""
        asked = f"{request.method} {request.url.path}"
        if exc.status_code == 404:
            why = f"no {request.url.path} here: the play aid's requests are listed at /api/docs"
        elif exc.status_code == 405:
            said = {k.lower(): v for k, v in (exc.headers or {}).items()}
            allowed = said.get("allow", "another method")
            why = f"{asked} is not taken: {request.url.path} takes {allowed} (see /api/docs)"
        else:
            why = f"{asked}: {exc.detail}"
        return _refusal(why, exc.status_code, headers=exc.headers)


def _page_routes(app: FastAPI, game: _Game) -> APIRouter:
    """The page and its files, and the game to watch (its state and log): what anyone may
    read, with or without the password."""
    pages = APIRouter()

    @pages.get("/", response_class=HTMLResponse)
    def page() -> str:
        return _read("index.html")

    @pages.get("/static/{name}")
    def static(name: str) -> Response:
        if name not in _STATIC:
            return _refusal(f"no file {name!r}", 404)
        return Response(_read(name), media_type=_STATIC[name])

    @pages.get("/openapi.json", include_in_schema=False)
    def old_schema() -> dict[str, Any]:
        """The schema where it was first served (it is at /api/openapi.json)."""
        return app.openapi()

    @pages.get("/api/state", response_model=None)
    def state(request: Request) -> dict[str, Any] | Response:
        """The game; with ``If-None-Match`` naming the version a page has, 304 and nothing
        more while the game is still that one (a page asks every few seconds)."""
        with game.lock:
            tag = f'"{game.session.version}"'
            if request.headers.get("if-none-match") == tag:
                return Response(status_code=304, headers={"ETag": tag})
            return JSONResponse(game.answer(game.session.now), headers={"ETag": tag})

    @pages.get("/api/log")
    def log() -> dict[str, Any]:
        """Every line of the game's log, oldest first (the game sends the newest only)."""
        with game.lock:
            return {"log": list(game.session.now.log), "version": game.session.version}

    @pages.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)  # (none: a browser asks, and is told so quietly)

    return pages


def _odds_routes(game: _Game) -> APIRouter:
    """The questions of odds, a shot's and an assault's: they change nothing, so anyone may
    ask them, with or without the password."""
    odds = APIRouter()

    @odds.post("/api/odds/shoot")
    def odds_shoot(body: ShotBody) -> dict[str, Any]:
        weapons = body.weapons
        asked = ShotAsked(
            firer=body.firer,
            target=body.target,
            range_inches=body.range,
            cover=body.cover,
            facing=body.facing,
            moving=body.moving,
            target_down=body.target_down,
            indirect=body.indirect,
            ranged_in=body.ranged_in,
            target_immobilised=body.target_immobilised,
            target_officer=body.target_officer,
            weapons=None if weapons is None else tuple((w.name, w.count) for w in weapons),
            one_shot_fired=body.one_shot_fired,
        )
        return questions.shoot(game.now(), asked)

    @odds.post("/api/odds/assault")
    def odds_assault(body: AssaultBody) -> dict[str, Any]:
        asked = AssaultAsked(**body.model_dump())
        return questions.assault(game.now(), asked)

    return odds


def _order_steps(steps: APIRouter, game: _Game) -> None:
    """The steps of giving orders: drawing a die, the order and its test, a die taken (a
    reaction, damage), FUBAR's Down, the unit's officer near, who rolls its tests, its
    one-shot weapons fired."""
    session, take = game.session, game.take

    @steps.post("/api/draw")
    def draw(body: DrawBody | None = None) -> dict[str, Any]:
        side = None if body is None else body.side
        return take(lambda t: t.draw(session.dice, side))

    @steps.post("/api/order")
    def order(body: OrderBody) -> dict[str, Any]:
        if body.roll and body.outcome is not None:
            raise AidError(
                f"both roll (the aid rolls) and outcome ({body.outcome}, the players rolled) "
                "given: give roll: false with the outcome, or leave the outcome out"
            )
        if not body.roll and body.outcome is None:
            raise AidError(
                "roll: false but no outcome: give outcome, the order test as the players "
                f"rolled it ({', '.join(OUTCOMES)}; pass for a unit that takes no test), "
                "or leave roll out for the aid to roll it"
            )
        return take(
            lambda t: t.give_order(
                body.unit,
                body.order,
                dice=session.dice if body.roll else None,
                outcome=None if body.roll else body.outcome,
                face=body.face,
                officer=body.officer,
                pins_lost=body.pins_lost,
            )
        )

    @steps.post("/api/take-die")
    def take_die(body: TakeDieBody) -> dict[str, Any]:
        return take(lambda t: t.take_die(body.unit, body.face, body.why))

    @steps.post("/api/fubar-down")
    def fubar_down(body: UnitBody) -> dict[str, Any]:
        return take(lambda t: t.fubar_down(body.unit))

    @steps.post("/api/near")
    def near(body: NearBody) -> dict[str, Any]:
        return take(lambda t: t.set_near(body.unit, body.officer))

    @steps.post("/api/own-dice")
    def own_dice(body: OwnDiceBody) -> dict[str, Any]:
        return take(lambda t: t.set_own_dice(body.unit, body.own))

    @steps.post("/api/one-shot-fired")
    def one_shot_fired(body: OneShotBody) -> dict[str, Any]:
        return take(lambda t: t.set_one_shot_fired(body.unit, body.fired))


def _casualty_steps(steps: APIRouter, game: _Game) -> None:
    """The steps of losses: pins and models set, a unit shot at, its morale check, an
    assault fought, a unit destroyed."""
    session, take = game.session, game.take

    @steps.post("/api/pins")
    def pins(body: PinsBody) -> dict[str, Any]:
        return take(lambda t: t.set_pins(body.unit, body.pins))

    @steps.post("/api/models")
    def models(body: ModelsBody) -> dict[str, Any]:
        return take(lambda t: t.set_models(body.unit, body.models))

    @steps.post("/api/shot-at")
    def shot_at(body: ShotAtBody) -> dict[str, Any]:
        return take(
            lambda t: t.shot_at(
                body.unit,
                body.casualties,
                body.pins,
                immobilised=body.immobilised,
                halted=body.halted,
                flamed=body.flamed,
                firer=body.firer,
                weapons=[(w.name, w.count) for w in body.weapons or ()],
            )
        )

    @steps.post("/api/morale-check")
    def check(body: MoraleCheckBody) -> dict[str, Any]:
        if body.roll and body.passed is not None:
            raise AidError(
                "both roll (the aid rolls) and passed (the players rolled) given: give "
                "roll: false with passed, or leave passed out"
            )
        if not body.roll and body.passed is None:
            raise AidError(
                "roll: false but no passed: give passed (true or false), the check as the "
                "players rolled it, or leave roll out for the aid to roll it"
            )
        return take(
            lambda t: t.morale_check(
                body.unit,
                dice=session.dice if body.roll else None,
                passed=body.passed,
                officer=body.officer,
                unowed=body.unowed,
            )
        )

    @steps.post("/api/fought")
    def fought(body: FoughtBody) -> dict[str, Any]:
        return take(
            lambda t: t.fought(
                body.attacker,
                body.defender,
                body.winner,
                body.left,
                stood_and_fired=body.stood_and_fired,
            )
        )

    @steps.post("/api/destroy")
    def destroy(body: UnitBody) -> dict[str, Any]:
        return take(lambda t: t.destroy(body.unit))


def _turn_steps(steps: APIRouter, game: _Game) -> None:
    """The steps of the game as a whole: the turn's end (and the roll for another), undo,
    a new game."""
    session = game.session

    @steps.post("/api/end-turn")
    def end_turn(body: EndTurnBody) -> dict[str, Any]:
        if body.roll and body.rolled is not None:
            raise AidError(
                f"both roll (the aid rolls) and rolled ({body.rolled}, the players rolled) "
                "given: give roll: false with rolled, or leave rolled out"
            )
        dice = session.dice if body.roll else None
        return game.take(lambda t: t.end_turn(body.keep, dice=dice, rolled=body.rolled))

    @steps.post("/api/undo")
    def undo() -> dict[str, Any]:
        with game.lock:
            return game.answer(session.undo())

    @steps.post("/api/new-game")
    def new_game() -> dict[str, Any]:
        with game.lock:
            return game.answer(session.new_game())


def _refusal(
    text: str,
    status: int,
    more: dict[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """The aid's answer to a request it does not take: ``error``, its reason as a sentence
    (the page shows it as it is), with ``more`` (the field at fault)."""
    return JSONResponse(
        {"error": sentence(text), **(more or {})}, status_code=status, headers=headers
    )


def _said(error: Any) -> str:
    """A malformed field's fault in words: a unit that is not its uid (true, 2.0, a name),
    a number of inches that is no number (NaN, infinity); else pydantic's own."""
    kind, loc = error["type"], error["loc"]
    given = json.dumps(error.get("input"), default=str)  # (as the request said it)
    if kind == "int_type" and any(p in UNIT_FIELDS for p in loc):
        return f"a unit is named by its uid, an integer (GET /api/state), not {given}"
    if kind == "finite_number":
        return f"not a number ({given}): give the inches measured, 0 to 1000"
    return str(error["msg"])


def _read(name: str) -> str:
    return (resources.files("kriegsspiel.aid") / "static" / name).read_text(encoding="utf-8")


def serve(app: FastAPI, host: str, port: int) -> None:
    """Serve ``app`` until Ctrl-C (uvicorn, quietly: the command says where)."""
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level="warning")
