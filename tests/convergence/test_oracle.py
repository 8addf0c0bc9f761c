from __future__ import annotations

from pathlib import Path

import pytest

from goalkeeper.convergence import (
    ConditionResult,
    DeterministicOracle,
    OracleConfig,
    OracleRequest,
    get_oracle,
)
from goalkeeper.errors import ConfigError


def _req(*passed: bool) -> OracleRequest:
    results = tuple(ConditionResult(type="test_pass", command=f"c{i}", passed=p, summary="s",
                                    output_tail="E   assert 1 == 2") for i, p in enumerate(passed))
    return OracleRequest("goal-abcd1234", "o", 1, Path("."), results)


def test_converges_only_when_all_pass() -> None:
    o = DeterministicOracle()
    assert o.judge(_req(True, True)).converged
    v = o.judge(_req(True, False))
    assert not v.converged and v.next_hint and "c1" in v.next_hint and "assert 1 == 2" in v.next_hint
    assert not o.judge(_req()).converged


def test_verdict_shape() -> None:
    d = DeterministicOracle().judge(_req(True)).to_dict()
    assert set(d) == {"converged", "conditionResults", "reasons", "nextHint", "confidence"}


def test_registry() -> None:
    assert get_oracle(OracleConfig()).name == "deterministic"
    with pytest.raises(ConfigError, match="register_oracle"):
        get_oracle(OracleConfig(model="gpt-judge"))
