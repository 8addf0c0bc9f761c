"""planning.plan: the facade over every search, checked against spec semantics.

Property tests generate small random specs, replay every plan with the model's own
semantics (Condition.holds, effect_values) and compare optimal costs with a
brute-force uniform-cost search over explicit states written here.
"""

from __future__ import annotations

import heapq
import itertools
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalkeeper.errors import PlanningError, StateError
from goalkeeper.model import Spec, load_spec, spec_from_data
from goalkeeper.model.lint import lint
from goalkeeper.planning import SEARCHES, PlanResult, SearchLimits, compile_spec, get_search, plan

MODES = ["astar", "regression", "greedy"]
OPTIMAL = ["astar", "regression"]
# search + explicit heuristic combinations exercised by the property tests
VARIANTS = [
    ("astar", None),
    ("astar", "blind"),
    ("astar", "hmax"),
    ("astar", "lmcut"),
    ("regression", None),
    ("regression", "blind"),
    ("greedy", None),
    ("greedy", "hadd"),
]


# -- spec semantics, independent of the planner ---------------------------------


def applicable(spec: Spec, action: str, state: dict[str, Any]) -> bool:
    return all(c.holds(state.get(c.fact)) for c in spec.actions[action].pre_conditions)


def apply(spec: Spec, action: str, state: dict[str, Any]) -> dict[str, Any]:
    out = dict(state)
    out.update(dict(spec.actions[action].effect_values))
    return out


def goal_holds(spec: Spec, state: dict[str, Any]) -> bool:
    return all(c.holds(state.get(c.fact)) for c in spec.goal_conditions)


def replay(spec: Spec, state: dict[str, Any], steps: tuple[str, ...]) -> tuple[dict[str, Any], float]:
    cost = 0.0
    for i, name in enumerate(steps):
        assert applicable(spec, name, state), f"step {i} ({name}) is not applicable in {state}"
        state = apply(spec, name, state)
        cost += spec.actions[name].cost
    return state, cost


def brute_force(spec: Spec, state: dict[str, Any], exclude: frozenset[str] = frozenset()) -> float | None:
    """Uniform-cost search over explicit states; the optimal cost or None."""
    keys = sorted(spec.facts)
    names = [n for n in spec.actions if n not in exclude]

    def freeze(s: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(s.get(k) for k in keys)

    best: dict[tuple[Any, ...], float] = {freeze(state): 0.0}
    tie = itertools.count()
    heap: list[tuple[float, int, dict[str, Any]]] = [(0.0, next(tie), dict(state))]
    while heap:
        g, _, s = heapq.heappop(heap)
        if g > best[freeze(s)]:
            continue
        if goal_holds(spec, s):
            return g
        for n in names:
            if applicable(spec, n, s):
                t = apply(spec, n, s)
                ng = g + spec.actions[n].cost
                k = freeze(t)
                if ng < best.get(k, math.inf):
                    best[k] = ng
                    heapq.heappush(heap, (ng, next(tie), t))
    return None


# -- fixtures -----------------------------------------------------------------

WEB = {
    "goalkeeper": 1,
    "goal": {"deployed": True, "lcp_ms": {"<": 2500}},
    "facts": {
        "image_built": {},
        "deployed": {},
        "lcp_ms": {"type": "float"},
        "env": {"type": "str", "initial": "staging"},
    },
    "actions": {
        "build": {"effects": {"image_built": True}, "cost": 2},
        "deploy": {"pre": {"image_built": True, "env": {"in": ["staging", "prod"]}}, "effects": {"deployed": True}},
        "optimize": {"pre": {"deployed": True}, "effects": {"lcp_ms": 2000}, "cost": 3},
        "cdn": {"effects": {"lcp_ms": 2400}, "cost": 10},
    },
}
WEB_STATE = {"image_built": False, "deployed": False, "lcp_ms": 3100.5}


@pytest.fixture
def web() -> Spec:
    return spec_from_data(WEB)


def test_builtin_searches_are_registered() -> None:
    for name in MODES:
        assert get_search(name) is SEARCHES[name]


@pytest.mark.parametrize("search", MODES)
def test_numeric_goal_met_by_effect_from_out_of_domain_value(web: Spec, search: str) -> None:
    r = plan(web, WEB_STATE, search=search)
    assert r.status == "found" and r.found
    assert r.search == search
    end, cost = replay(web, {**WEB_STATE, "env": "staging"}, r.plan)
    assert goal_holds(web, end)
    assert r.cost == pytest.approx(cost)
    assert r.expanded >= 0 and r.generated >= 0 and r.seconds >= 0
    assert r.unreachable == () and r.reason == ""


@pytest.mark.parametrize("search", OPTIMAL)
def test_optimal_searches_find_cheapest_plan(web: Spec, search: str) -> None:
    r = plan(web, WEB_STATE, search=search)
    assert r.cost == 6.0
    assert sorted(r.plan) == ["build", "deploy", "optimize"]
    assert r.plan.index("build") < r.plan.index("deploy") < r.plan.index("optimize")


@pytest.mark.parametrize("search", MODES)
def test_goal_already_holds(web: Spec, search: str) -> None:
    r = plan(web, {"image_built": True, "deployed": True, "lcp_ms": 1200.0}, search=search)
    assert (r.status, r.plan, r.cost) == ("found", (), 0.0)


@pytest.mark.parametrize("search", MODES)
def test_exclude_is_honoured(web: Spec, search: str) -> None:
    r = plan(web, WEB_STATE, search=search, exclude=["optimize"])
    assert r.found
    assert "optimize" not in r.plan and "cdn" in r.plan
    if search in OPTIMAL:
        assert r.cost == 13.0


@pytest.mark.parametrize("search", MODES)
def test_exclude_every_setter_makes_goal_unreachable(web: Spec, search: str) -> None:
    r = plan(web, WEB_STATE, search=search, exclude=["optimize", "cdn"])
    assert r.status == "unreachable"
    (gap,) = r.unreachable
    assert gap.fact == "lcp_ms" and gap.condition == "< 2500" and gap.current == 3100.5
    assert {(s.action, s.excluded) for s in gap.setters} == {("optimize", True), ("cdn", True)}


def test_exclude_unknown_action_is_a_planning_error(web: Spec) -> None:
    with pytest.raises(PlanningError, match="cannot exclude unknown action 'optimise'"):
        plan(web, WEB_STATE, exclude=["optimise"])


def test_unknown_search_names_the_choices(web: Spec) -> None:
    with pytest.raises(PlanningError) as ei:
        plan(web, WEB_STATE, search="dfs")
    msg = str(ei.value)
    assert "unknown search 'dfs'" in msg
    for name in MODES:
        assert name in msg


def test_state_is_checked_against_spec(web: Spec) -> None:
    with pytest.raises(StateError, match="deployd: unknown fact"):
        plan(web, {**WEB_STATE, "deployd": True})
    with pytest.raises(StateError, match="lcp_ms: expected a number"):
        plan(web, {**WEB_STATE, "lcp_ms": "slow"})
    with pytest.raises(StateError, match="image_built: missing"):
        plan(web, {"deployed": False, "lcp_ms": 1.0})


@pytest.mark.parametrize("search", MODES)
def test_unknown_values_satisfy_no_condition(web: Spec, search: str) -> None:
    # deployed unknown: the goal does not hold yet, and optimize (pre deployed) cannot run
    r = plan(web, {"image_built": True, "deployed": None, "lcp_ms": 2000.0}, search=search)
    assert r.found and r.plan == ("deploy",)
    # env unknown: deploy's `env in [...]` cannot hold, so nothing sets deployed
    r = plan(web, {**WEB_STATE, "env": None}, search=search)
    assert r.status == "unreachable"
    assert [u.fact for u in r.unreachable] == ["deployed"]


@pytest.mark.parametrize("search", MODES)
def test_unknown_value_does_not_satisfy_not_equal_goal(search: str) -> None:
    spec = spec_from_data(
        {
            "goalkeeper": 1,
            "goal": {"mode": {"!=": "broken"}},
            "facts": {"mode": {"type": "str"}},
            "actions": {"repair": {"effects": {"mode": "ok"}}},
        }
    )
    assert plan(spec, {"mode": None}, search=search).plan == ("repair",)
    assert plan(spec, {"mode": "fine"}, search=search).plan == ()


def test_limit_status_when_search_stops_early() -> None:
    n = 6
    spec = spec_from_data(
        {
            "goalkeeper": 1,
            "goal": {"step": n},
            "facts": {"step": {"type": "int"}},
            "actions": {f"s{i}": {"pre": {"step": i}, "effects": {"step": i + 1}} for i in range(n)},
        }
    )
    r = plan(spec, {"step": 0}, limits=SearchLimits(max_expansions=1))
    assert r.status == "limit" and not r.found
    assert r.plan == () and r.unreachable == ()
    assert "limit" in r.reason
    assert r.to_dict()["cost"] is None
    full = plan(spec, {"step": 0})
    assert full.plan == tuple(f"s{i}" for i in range(n))


def test_to_dict_shape(web: Spec) -> None:
    d = plan(web, WEB_STATE).to_dict()
    assert set(d) >= {"status", "plan", "cost", "expanded", "generated", "seconds", "unreachable"}
    assert d["status"] == "found"
    assert d["cost"] == 6 and isinstance(d["cost"], int)
    assert isinstance(d["plan"], list)
    u = plan(web, WEB_STATE, exclude=["optimize", "cdn"]).to_dict()
    assert u["cost"] is None
    assert u["unreachable"][0]["fact"] == "lcp_ms"
    assert u["unreachable"][0]["setters"][0]["excluded"] is True


def test_plan_result_is_frozen(web: Spec) -> None:
    r = plan(web, WEB_STATE)
    assert isinstance(r, PlanResult)
    with pytest.raises(AttributeError):
        r.status = "unreachable"  # type: ignore[misc]


# -- the compile cache ---------------------------------------------------------

THERMO = {
    "goalkeeper": 1,
    "goal": {"temp": {"<": 30}},
    "facts": {"temp": {"type": "float"}, "fan": {}},
    "actions": {
        "cool": {"pre": {"temp": {">": 50}}, "effects": {"temp": 20}},
        "fan_on": {"effects": {"fan": True}},
        "vent": {"pre": {"fan": True, "temp": {"<=": 50}}, "effects": {"temp": 25}, "cost": 4},
    },
}


@pytest.mark.parametrize("search", MODES)
def test_cache_gives_correct_answer_per_out_of_domain_value(search: str) -> None:
    spec = spec_from_data(THERMO)
    seq = [(60.0, ("cool",)), (40.0, ("fan_on", "vent")), (29.0, ()), (60.0, ("cool",)), (40.0, ("fan_on", "vent"))]
    for temp, expected in seq:
        r = plan(spec, {"temp": temp, "fan": False}, search=search)
        assert r.found and r.plan == expected, (temp, r)


def test_compile_is_cached_per_out_of_domain_value() -> None:
    spec = spec_from_data(THERMO)
    a = compile_spec(spec, {"temp": 60.0, "fan": False})
    assert compile_spec(spec, {"temp": 60.0, "fan": True}) is a
    b = compile_spec(spec, {"temp": 40.0, "fan": False})
    assert b is not a
    assert 40.0 in b.domains[b.var_names.index("temp")]
    # values inside the effect domain share one task
    c = compile_spec(spec, {"temp": 20.0, "fan": False})
    assert compile_spec(spec, {"temp": 25.0, "fan": False}) is c


def test_cache_stays_correct_past_its_bound() -> None:
    spec = spec_from_data(THERMO)
    for i in range(300):
        temp = 30.5 + i * 0.25  # crosses 50: cool becomes applicable
        r = plan(spec, {"temp": temp, "fan": True})
        expected = ("cool",) if temp > 50 else ("vent",)
        assert r.plan == expected, (temp, r.plan)


def test_cache_eviction_keeps_source_lines(tmp_path: Path) -> None:
    p = tmp_path / "thermo.yaml"
    p.write_text(
        "goalkeeper: 1\ngoal: {temp: {'<': 30}}\nfacts:\n  temp: {type: float}\n"
        "actions:\n  cool: {effects: {temp: 20}}\n"
    )
    spec = load_spec(p)
    before = [(i.path, i.line) for i in lint(spec)]
    assert ("facts.temp", 4) in before  # no observer: a warning with its line
    assert all(line is not None for _, line in before)
    for i in range(300):
        plan(spec, {"temp": 100.0 + i})
    assert [(i.path, i.line) for i in lint(spec)] == before


# -- property tests --------------------------------------------------------------

INT_VALUES = st.integers(min_value=0, max_value=2)
STR_VALUES = st.sampled_from(["a", "b"])


def value_for(ftype: str) -> st.SearchStrategy[Any]:
    return {"bool": st.booleans(), "int": INT_VALUES, "str": STR_VALUES}[ftype]


def condition_for(ftype: str) -> st.SearchStrategy[Any]:
    v = value_for(ftype)
    ops = ["==", "!=", "in"] + (["<", "<=", ">", ">="] if ftype == "int" else [])
    plain = v
    single = st.builds(lambda op, x: {op: x}, st.sampled_from([o for o in ops if o != "in"]), v)
    member = st.lists(v, min_size=1, max_size=3).map(lambda xs: {"in": xs})
    return st.one_of(plain, single, member)


@st.composite
def problems(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    nfacts = draw(st.integers(1, 4))
    types = [draw(st.sampled_from(["bool", "int", "str"])) for _ in range(nfacts)]
    names = [f"f{i}" for i in range(nfacts)]

    def conds(min_size: int, max_size: int) -> dict[str, Any]:
        chosen = draw(st.lists(st.integers(0, nfacts - 1), min_size=min_size, max_size=max_size, unique=True))
        return {names[i]: draw(condition_for(types[i])) for i in chosen}

    actions = {}
    for a in range(draw(st.integers(0, 6))):
        effs = draw(st.lists(st.integers(0, nfacts - 1), min_size=1, max_size=2, unique=True))
        actions[f"a{a}"] = {
            "pre": conds(0, draw(st.sampled_from([0, 1, 1, 2]))),
            "effects": {names[i]: draw(value_for(types[i])) for i in effs},
            "cost": draw(st.sampled_from([1, 1, 2, 3, 0.5, 5])),
        }
    data = {
        "goalkeeper": 1,
        "goal": conds(1, 2),
        "facts": {n: {"type": t} for n, t in zip(names, types, strict=True)},
        "actions": actions,
    }
    # current values may lie outside every effect domain, or be unknown
    state_values = {
        "bool": st.booleans(),
        "int": st.integers(-2, 6),
        "str": st.sampled_from(["a", "b", "c", "zz"]),
    }
    unknown = st.integers(0, 7).map(lambda k: k == 0)  # about one value in eight
    state = {n: None if draw(unknown) else draw(state_values[t]) for n, t in zip(names, types, strict=True)}
    exclude = draw(st.lists(st.sampled_from(sorted(actions)), unique=True, max_size=2)) if actions else []
    return data, state, exclude


PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(problems())
def test_every_plan_replays_and_optimal_costs_match_brute_force(
    problem: tuple[dict[str, Any], dict[str, Any], list[str]],
) -> None:
    data, state, exclude = problem
    spec = spec_from_data(data)
    optimum = brute_force(spec, state, frozenset(exclude))
    for search, heuristic in VARIANTS:
        r = plan(spec, state, search=search, heuristic=heuristic, exclude=exclude)
        label = f"{search}/{heuristic}"
        if optimum is None:
            assert r.status == "unreachable", label
            assert r.plan == ()
            assert r.reason
            goal_facts = {c.fact for c in spec.goal_conditions}
            assert {u.fact for u in r.unreachable} <= goal_facts
            for u in r.unreachable:
                for s in u.setters:
                    assert s.excluded == (s.action in exclude)
            continue
        assert r.status == "found", (label, r)
        assert not set(r.plan) & set(exclude), label
        end, cost = replay(spec, state, r.plan)
        assert goal_holds(spec, end), label
        assert r.cost == pytest.approx(cost), label
        if search in OPTIMAL:
            assert r.cost == pytest.approx(optimum), label


@PROPS
@given(problems())
def test_plan_is_deterministic(problem: tuple[dict[str, Any], dict[str, Any], list[str]]) -> None:
    data, state, exclude = problem
    spec = spec_from_data(data)
    for search in MODES:
        first = plan(spec, state, search=search, exclude=exclude)
        again = plan(spec, state, search=search, exclude=exclude)  # compiled task from the cache
        fresh = plan(spec_from_data(data), dict(state), search=search, exclude=list(exclude))
        for other in (again, fresh):
            assert (other.status, other.plan, other.cost, other.unreachable) == (
                first.status, first.plan, first.cost, first.unreachable,
            ), search
