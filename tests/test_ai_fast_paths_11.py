"""Round 11's fast paths give the plain computations' answers exactly."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.rulesets.bolt_action.assault import (
    Side,
    Step,
    _step_odds,
    _steps,
    round_result,
)
from kriegsspiel.rulesets.bolt_action.morale import MoraleTest


def plain_steps(
    procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> tuple[int, tuple[Step, ...]]:
    """``_steps`` as it was: the step's exact chances, put over their least common
    denominator."""
    survivors = _step_odds(procedure, attacker, defender, a, d)
    denominator = math.lcm(*(p.denominator for _, p in survivors.items()))
    return denominator, tuple(
        (s, p.numerator * (denominator // p.denominator), *round_result(procedure, (a, d), s))
        for s, p in survivors.items()
    )


sides = st.builds(
    Side,
    damage_value=st.integers(2, 7),
    morale=st.just(MoraleTest(base=9)),
    attacks_per_model=st.integers(0, 2),
    assault_models=st.integers(0, 3),
    assault_attacks=st.integers(1, 3),
    mode=st.sampled_from(["hand-to-hand", "point-blank"]),
    shots_per_model=st.integers(1, 2),
    point_blank_hit=st.sampled_from([(2,), (3,), (5,), (6,), (6, 4), (6, 6)]),
)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["rounds", "choice"]),
    sides,
    sides,
    st.integers(0, 8),
    st.integers(0, 8),
)
def test_steps_summed_as_integers_match_the_chances(
    procedure: str, attacker: Side, defender: Side, a: int, d: int
) -> None:
    """A fight's step weighed in integers has the same least denominator, survivors (in
    order), weights and results as the step's exact chances put over one denominator."""
    assert _steps.__wrapped__(procedure, attacker, defender, a, d) == plain_steps(
        procedure, attacker, defender, a, d
    )
