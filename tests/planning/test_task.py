"""planning.task: the bitset encoding of a finite-domain task."""

from __future__ import annotations

import pytest

from goalkeeper.planning import GroundAction, Task


def two_var_task() -> Task:
    # var 0: light in (off, on); var 1: door in (closed, ajar, open)
    return Task.compile(
        ["light", "door"],
        [["off", "on"], ["closed", "ajar", "open"]],
        [
            GroundAction("switch_on", pre=((0, frozenset({0})),), eff=((0, 1),)),
            GroundAction("open", pre=((0, frozenset({1})), (1, frozenset({0, 1}))), eff=((1, 2),), cost=2),
            GroundAction("slam", pre=(), eff=((1, 0), (0, 0)), cost=1),
        ],
        goal=[(1, frozenset({2}))],
    )


def test_layout() -> None:
    t = two_var_task()
    assert t.offsets == (0, 2)
    assert t.nbits == 5
    assert t.var_masks == (0b00011, 0b11100)
    assert t.full == 0b11111
    assert t.bit_var == (0, 0, 1, 1, 1)
    assert not t.unit_cost


def test_encode_decode_roundtrip() -> None:
    t = two_var_task()
    for a in range(2):
        for b in range(3):
            s = t.encode([a, b])
            assert bin(s).count("1") == 2
            assert t.decode(s) == (a, b)


def test_encode_needs_one_value_per_variable() -> None:
    with pytest.raises(ValueError):
        two_var_task().encode([0])


def test_goal_and_applicability() -> None:
    t = two_var_task()
    dark_closed = t.encode([0, 0])
    lit_ajar = t.encode([1, 1])
    assert not t.is_goal(dark_closed)
    assert t.is_goal(t.encode([1, 2]))
    assert [o.name for o in t.applicable(dark_closed)] == ["switch_on", "slam"]
    assert [o.name for o in t.applicable(lit_ajar)] == ["open", "slam"]


def test_multi_value_precondition_is_a_set() -> None:
    t = two_var_task()
    op = t.operators[1]
    assert op.pre_bits == (1,)  # light == on
    assert op.pre_sets == (0b01100,)  # door in {closed, ajar}
    assert op.pre_vars == (0, 1)
    assert t.applicable(t.encode([1, 2])) == [t.operators[2]]  # door already open


def test_apply_overwrites_effect_variables_only() -> None:
    t = two_var_task()
    s = t.apply(t.encode([1, 1]), t.operators[1])
    assert t.decode(s) == (1, 2)
    s = t.apply(s, t.operators[2])
    assert t.decode(s) == (0, 0)


def test_replay_and_inapplicable_step() -> None:
    t = two_var_task()
    init = t.encode([0, 0])
    assert t.decode(t.replay(init, [0, 1])) == (1, 2)
    with pytest.raises(ValueError, match=r"step 0 \(open\) is not applicable"):
        t.replay(init, [1])


def test_unconstrained_precondition_is_dropped() -> None:
    t = Task.compile(
        ["x"], [[0, 1]], [GroundAction("any", pre=((0, frozenset({0, 1})),), eff=((0, 1),))], goal=[]
    )
    op = t.operators[0]
    assert op.forbid == 0 and op.pre_vars == () and op.pre_sets == ()
    assert t.unit_cost
    assert t.is_goal(t.encode([0]))


def test_empty_domain_is_rejected() -> None:
    with pytest.raises(ValueError, match="'x' has an empty domain"):
        Task.compile(["x"], [[]], [], goal=[])
