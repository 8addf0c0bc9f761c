"""The pure, typed spec model."""

from .conditions import Condition
from .loader import load_spec, parse_spec_text, spec_from_data
from .schema import spec_json_schema
from .spec import ActionDef, FactDef, Observer, Policy, Spec
from .state import complete_state, load_state
from .vars import require_variables, unset_variables

__all__ = [
    "ActionDef",
    "Condition",
    "FactDef",
    "Observer",
    "Policy",
    "Spec",
    "complete_state",
    "load_spec",
    "load_state",
    "parse_spec_text",
    "require_variables",
    "spec_from_data",
    "spec_json_schema",
    "unset_variables",
]
