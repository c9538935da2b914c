"""An episode shown to a person watching an agent: a few lines of text, or the table drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kriegsspiel.render.table_svg import table_svg

if TYPE_CHECKING:
    from kriegsspiel.env.episode import Episode


RENDER_MODES = ("ansi", "svg", "human")


def render_episode(episode: Episode, mode: str) -> str | None:
    """``mode`` "svg": the table with the action grid's cells and the units deciding
    outlined; "ansi": the turn, score and each side's units, one line each; "human":
    the "ansi" text printed (to standard output) and None given, as Gymnasium's and
    PettingZoo's conventions have it."""
    if mode == "human":
        print(render_episode(episode, "ansi"), flush=True)
        return None
    game = episode.game
    if mode == "svg":
        marked = game.deciding_units() or [u.uid for u in game.eligible(max(episode.side, 0))]
        return table_svg(game, grid=episode.setup.encoding.cell, marked=marked)
    a, b = game.score()
    lines = [f"turn {game.turn} of {game.scenario.turns}, score {a}-{b}"]
    if game.is_terminal():
        lines[0] += ", game over"
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
