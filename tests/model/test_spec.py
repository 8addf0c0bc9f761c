"""model.spec: the Spec model built from data (no files): shape and meaning."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest

from goalkeeper.errors import SpecError
from goalkeeper.model import Condition, Observer, Policy, Spec, spec_from_data
from goalkeeper.model.spec import FORMAT_VERSION, describe_effects, suggest


def data(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
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
            "deploy": {"pre": {"image_built": True}, "effects": {"deployed": True}},
            "optimize": {"effects": {"lcp_ms": 2000}},
        },
    }
    base.update(over)
    return base


def issues_of(d: Any) -> list[tuple[str, str]]:
    with pytest.raises(SpecError) as ei:
        spec_from_data(d)
    return [(i.path, i.message) for i in ei.value.issues]


def test_valid_spec_resolves_conditions_and_effects() -> None:
    spec = spec_from_data(data())
    assert isinstance(spec, Spec)
    assert set(spec.goal_conditions) == {
        Condition("deployed", "==", True),
        Condition("lcp_ms", "<", 2500.0),
    }
    assert spec.actions["deploy"].pre_conditions == (Condition("image_built", "==", True),)
    (eff,) = spec.actions["optimize"].effect_values
    assert eff == ("lcp_ms", 2000.0) and isinstance(eff[1], float)


def test_defaults() -> None:
    spec = spec_from_data(data())
    assert FORMAT_VERSION == 1
    assert spec.facts["deployed"].type == "bool"
    assert spec.fact_type("lcp_ms") == "float"
    assert spec.actions["deploy"].cost == 1.0
    assert spec.actions["build"].cost == 2.0
    assert spec.actions["deploy"].destructive is False
    assert spec.policy == Policy()
    assert spec.policy.max_ticks == 25
    assert spec.policy.strikes == 3
    assert spec.defaults() == {"env": "staging"}


def test_spec_is_frozen() -> None:
    spec = spec_from_data(data())
    with pytest.raises(pydantic.ValidationError):
        spec.name = "other"  # type: ignore[misc]


def test_describe_effects() -> None:
    spec = spec_from_data(data())
    assert describe_effects(spec.actions["optimize"]) == "lcp_ms = 2000"


def test_max_ticks_may_be_null() -> None:
    spec = spec_from_data(data(policy={"max_ticks": None}))
    assert spec.policy.max_ticks is None


@pytest.mark.parametrize(
    "version", [2, 0, "1", None],
)
def test_format_version_must_be_1(version: Any) -> None:
    assert issues_of(data(goalkeeper=version)) == [
        ("goalkeeper", "unsupported format version; this goalkeeper reads `goalkeeper: 1`")
    ]




def test_missing_required_keys_listed_together() -> None:
    got = issues_of({"goalkeeper": 1})
    assert ("goal", "required key is missing") in got
    assert ("facts", "required key is missing") in got


def test_unknown_keys_with_did_you_mean_listed_together() -> None:
    d = data()
    d["actoins"] = d.pop("actions")
    d["facts"]["deployed"] = {"tpye": "bool"}
    d["policy"] = {"max_tick": 3}
    got = dict(issues_of(d))
    assert got["actoins"] == "unknown key (did you mean actions?)"
    assert got["facts.deployed.tpye"] == "unknown key (did you mean type?)"
    assert got["policy.max_tick"] == "unknown key (did you mean max_ticks?)"


def test_unknown_key_without_close_match_lists_allowed_keys() -> None:
    d = data()
    d["actions"]["build"]["zzz"] = 1
    (path, msg), = issues_of(d)
    assert path == "actions.build.zzz"
    assert msg.startswith("unknown key; allowed keys: pre, effects, cost, run")


@pytest.mark.parametrize("cost", [0, -1, -0.5])
def test_cost_must_be_positive(cost: float) -> None:
    d = data()
    d["actions"]["build"]["cost"] = cost
    assert issues_of(d) == [("actions.build.cost", "cost must be a positive number (e.g. cost: 1)")]


def test_shape_errors_reported_together() -> None:
    d = data()
    d["actions"]["build"]["cost"] = 0
    d["actions"]["deploy"]["timeout"] = -1
    d["facts"]["deployed"] = {"type": "boolean"}
    d["policy"] = {"strikes": 0}
    paths = {p for p, _ in issues_of(d)}
    assert paths == {"actions.build.cost", "actions.deploy.timeout", "facts.deployed.type", "policy.strikes"}


def test_semantic_errors_reported_together() -> None:
    d = data()
    d["goal"] = {"deployd": True, "lcp_ms": {"<": "fast"}}
    d["actions"]["deploy"]["pre"] = {"image_bilt": True, "env": {">": "a"}}
    d["actions"]["optimize"]["effects"] = {"lcp_ms": "2s"}
    d["actions"]["build"]["effects"] = {"image_built": {"==": True}}
    d["actions"]["wipe"] = {"effects": {"deployed": False}, "confirm": True}
    d["facts"]["lcp_ms"]["initial"] = True
    got = dict(issues_of(d))
    assert got == {
        "facts.lcp_ms.initial": "expected a number, got bool True",
        "goal.deployd": "unknown fact (did you mean deployed?)",
        "goal.lcp_ms.<": "expected a number, got str 'fast'",
        "actions.deploy.pre.image_bilt": "unknown fact (did you mean image_built?)",
        "actions.deploy.pre.env.>": "operator '>' does not fit a str fact; use one of ==, !=, in",
        "actions.optimize.effects.lcp_ms": "expected a number, got str '2s'",
        "actions.build.effects.image_built": "an effect assigns a value (e.g. image_built: true), not a condition",
        "actions.wipe.confirm": "confirm only applies to destructive actions; add destructive: true",
    }


def test_spec_error_message_lists_every_issue() -> None:
    d = data()
    d["goal"] = {"a": True, "b": True}
    with pytest.raises(SpecError) as ei:
        spec_from_data(d)
    text = str(ei.value)
    assert "goal.a: unknown fact" in text and "goal.b: unknown fact" in text


@pytest.mark.parametrize(
    ("ftype", "value"),
    [("bool", 1), ("int", True), ("int", 2.5), ("str", 1), ("float", "1")],
)
def test_effect_value_must_fit_fact_type(ftype: str, value: Any) -> None:
    d = data(facts={"x": {"type": ftype}}, goal={"x": {"in": [value]}})
    d["actions"] = {"set": {"effects": {"x": value}}}
    paths = {p for p, _ in issues_of(d)}
    assert "actions.set.effects.x" in paths
    assert "goal.x.in[0]" in paths


def test_empty_goal_is_an_error() -> None:
    assert issues_of(data(goal={})) == [
        ("goal", "the goal is empty; name at least one fact and the value it must reach")
    ]


def test_prose_goal_is_an_error() -> None:
    got = issues_of(data(goal="make it fast"))
    assert len(got) == 1
    assert "the goal is prose" in got[0][1]


def test_prose_goal_error_points_at_goal_key() -> None:
    assert issues_of(data(goal="make it fast"))[0][0] == "goal"


def test_fact_with_two_observers_is_an_error() -> None:
    d = data()
    d["facts"]["deployed"] = {"observe": {"command": "curl x", "http": "http://x"}}
    (path, msg), = issues_of(d)
    assert path == "facts.deployed.observe"
    assert "ONE observer" in msg and "command, http" in msg


def test_fact_with_list_of_two_observers_is_an_error() -> None:
    d = data()
    d["facts"]["deployed"] = {"observe": [{"command": "a"}, {"file": "b"}]}
    (path, msg), = issues_of(d)
    assert path == "facts.deployed"
    assert "ONE observer" in msg


def test_observer_list_of_one_is_accepted() -> None:
    d = data()
    d["facts"]["deployed"] = {"observe": [{"file": "deployed.flag"}]}
    spec = spec_from_data(d)
    obs = spec.facts["deployed"].observe
    assert obs is not None and obs.kind == "file"


def test_observer_needs_a_kind() -> None:
    d = data()
    d["facts"]["deployed"] = {"observe": {"parse": "exit_code"}}
    (path, msg), = issues_of(d)
    assert path == "facts.deployed.observe"
    assert msg == "observer needs one of: command, file, http, python"


def test_observer_key_typo_gets_did_you_mean() -> None:
    d = data()
    d["facts"]["deployed"] = {"observe": {"comand": "curl -f x"}}
    got = dict(issues_of(d))
    assert got.get("facts.deployed.observe.comand") == "unknown key (did you mean command?)"


@pytest.mark.parametrize(
    ("obs", "kind", "text"),
    [
        ({"command": ["curl", "-f", "x"]}, "command", "command `curl -f x`"),
        ({"command": "make test"}, "command", "command `make test`"),
        ({"file": "out.json", "parse": "json", "path": "a.b"}, "file", "file `out.json` (parse: json, path a.b)"),
        ({"http": "http://h/health"}, "http", "http GET http://h/health"),
        ({"python": "m:f"}, "python", "python m:f"),
    ],
)
def test_observer_kind_and_describe(obs: dict[str, Any], kind: str, text: str) -> None:
    o = Observer.model_validate(obs)
    assert o.kind == kind
    assert o.describe() == text


@pytest.mark.parametrize(("url", "why"), [
    ("127.0.0.1:8080/health", "scheme"),
    ("example.com/health", "no scheme"),
    ("file:///etc/passwd", "scheme 'file'"),
    ("ftp://h/x", "scheme 'ftp'"),
    ("http:///health", "no host"),
    ("http://h:notaport/", "not a usable URL"),
])
def test_http_observer_needs_an_http_url_with_a_host(url: str, why: str) -> None:
    d = data()
    d["facts"]["deployed"] = {"observe": {"http": url}}
    (path, msg), = issues_of(d)
    assert path == "facts.deployed.observe.http" and why in msg and "http://127.0.0.1:8080/health" in msg


@pytest.mark.parametrize("url", ["${BASE_URL}/health", "http://${HOST}:8080/x", "https://h/x?q=1"])
def test_http_urls_from_variables_are_judged_at_run_time(url: str) -> None:
    d = data()
    d["facts"]["deployed"] = {"observe": {"http": url}}
    spec_from_data(d)


@pytest.mark.parametrize(("target", "fragment"), [
    ("checks.health", "did you mean checks:health?"),
    ("mod", "module:function"),
    ("mod:", "module:function"),
    ("mod:fn:x", "module:function"),
    ("2mod:f", "module:function"),
    ("mod:f()", "module:function"),
    (" mod:f", "module:function"),
])
def test_python_observer_needs_module_colon_function(target: str, fragment: str) -> None:
    d = data()
    d["facts"]["deployed"] = {"observe": {"python": target}}
    (path, msg), = issues_of(d)
    assert path == "facts.deployed.observe.python" and fragment in msg


def test_python_observer_targets_that_run() -> None:
    for target in ("m:f", "pkg.sub_mod:check_2", "_x:_y"):
        assert Observer.model_validate({"python": target}).python == target


def test_bad_observer_parse_mode() -> None:
    d = data()
    d["facts"]["deployed"] = {"observe": {"command": "x", "parse": "xml"}}
    (path, _), = issues_of(d)
    assert path == "facts.deployed.observe.parse"


def test_destructive_int_is_a_type_error() -> None:
    d = data()
    d["actions"]["build"]["destructive"] = 1
    issues_of(d)


def test_destructive_string_is_a_type_error() -> None:
    d = data()
    d["actions"]["build"]["destructive"] = "no"
    issues_of(d)


def test_wrong_plain_field_types() -> None:
    d = data(name=3)
    d["actions"]["build"]["run"] = 5
    d["actions"]["deploy"]["env"] = {"A": 1}
    paths = {p for p, _ in issues_of(d)}
    assert paths == {"name", "actions.build.run", "actions.deploy.env.A"}


def test_facts_must_be_a_mapping() -> None:
    (path, _), = issues_of(data(facts=["a", "b"]))
    assert path == "facts"


def test_not_a_mapping() -> None:
    for bad in (None, [], "text", 3):
        (path, msg), = issues_of(bad)
        assert path == ""
        assert "a spec is a mapping" in msg


def test_suggest() -> None:
    assert suggest("image_bilt", ["image_built", "deployed"]) == " (did you mean image_built?)"
    assert suggest("zzz", ["image_built"]) == ""
