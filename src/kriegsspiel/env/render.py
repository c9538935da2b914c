"""An episode shown to a person watching an agent: a few lines of text, or the table drawn
(as SVG, or as pixels for a video)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kriegsspiel.core.game import CHANCE
from kriegsspiel.render.table_svg import table_svg

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from kriegsspiel.env.episode import Episode


RENDER_MODES = ("ansi", "svg", "rgb_array", "human")


def render_episode(
    episode: Episode, mode: str, *, forfeit: str | None = None
) -> str | npt.NDArray[np.uint8] | None:
    """``mode`` "svg": the table with the action grid's cells and the units deciding
    outlined; "rgb_array": the same as a (height, width, 3) array of RGB bytes (every
    frame of a set-up the same size), the decision pending said below it; "ansi": the
    turn, score and decision pending, and each side's units, one line each; "human": the
    "ansi" text printed (to standard output) and None given, as Gymnasium's and
    PettingZoo's conventions have it. ``forfeit``: why an agent lost by an index not
    open (its game over although the engine's is not, so no decision is shown)."""
    if mode == "human":
        print(render_episode(episode, "ansi", forfeit=forfeit), flush=True)
        return None
    game = episode.game
    marked = [] if forfeit is not None else _marked(episode)
    if mode == "svg":
        return table_svg(game, grid=episode.setup.encoding.cell, marked=marked)
    if mode == "rgb_array":
        from kriegsspiel.render.table_pixels import table_pixels

        said = decision(episode) if forfeit is None else _forfeited(forfeit)
        return table_pixels(game, marked=marked, lines=[said])
    a, b = game.score()
    lines = [f"turn {game.scenario.turn_of(game.turn)}, score {a}-{b}"]
    if forfeit is not None:
        lines[0] += f", {_forfeited(forfeit)}"
    elif game.is_terminal():
        lines[0] += ", game over"
    else:
        lines.append(decision(episode))
    for side in (0, 1):
        lines.append(f"side {side}:")
        for u in game.units:
            if u.side != side:
                continue
            if u.destroyed:
                lines.append(f"  {u.uid:>2} {u.name}: destroyed")
                continue
            state = u.order or (f"kept {u.retained}" if u.retained else "die in the bag")
            if game.is_terminal():  # (the engine puts the dice back as the last turn ends)
                state = f"kept {u.retained}" if u.retained else ""
            lines.append(
                f"  {u.uid:>2} {u.name}: {len(u.alive_models)}/{u.start_models} models, "
                f"{u.pins} pins, {state + ', ' if state else ''}"
                f"at ({u.anchor.x:.1f}, {u.anchor.y:.1f})"
            )
    return "\n".join(lines)


def decision(episode: Episode) -> str:
    """The decision the episode waits for, in a line: "deciding: side 1, ...", or "game
    over"."""
    game = episode.game
    if game.is_terminal():
        return "game over"
    name = {u.uid: u.name for u in game.units}
    if episode.advance is not None:
        advance = next(iter(episode.advance.values()))
        x, y = advance.to or (0.0, 0.0)
        what = (
            f"how {name[advance.unit]}'s Advance to ({x:.1f}, {y:.1f}) ends "
            f"({len(episode.advance)} endings open)"
        )
        return f"deciding: side {game.current_player()}, {what}"
    side = game.current_player()
    pending = game.pending
    if pending is None:
        if side == CHANCE:
            return "deciding: chance, a die drawn from the bag"
        return f"deciding: side {side}, an order for one of its {len(game.eligible(side))} units"
    order, unit = pending.action, name[pending.target]
    if pending.kind == "shot-reaction":
        what = f"{unit}'s reaction to {name[order.unit]}'s fire ({order.order})"
    elif pending.kind == "assault-reaction":
        what = f"{unit}'s reaction to {name[order.unit]}'s assault"
    elif pending.kind == "ambush":
        what = f"whether its units on Ambush fire at {unit}"
    elif pending.kind == "retain":
        what = f"whether {unit} keeps its {order.order} die"
    else:  # friendly fire
        what = f"which friend the FUBAR {unit} fires at"
    return f"deciding: side {pending.side}, {what}"


def _forfeited(forfeit: str) -> str:
    return f"game over, forfeited by the agent: {forfeit}"


def _marked(episode: Episode) -> list[int]:
    """The units to outline: those deciding (an Advance's, at its follow-up), else the
    units of the side to order."""
    game = episode.game
    if episode.advance is not None:
        return [next(iter(episode.advance.values())).unit]
    if game.is_terminal():
        return []
    return game.deciding_units() or [u.uid for u in game.eligible(max(episode.side, 0))]
