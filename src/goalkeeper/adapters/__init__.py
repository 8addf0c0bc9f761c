"""Adapters: the makers and oracles that live outside the loop, and the shipped test doubles.

The loop speaks only :mod:`goalkeeper.convergence.contracts`; importing this
package registers the built-in implementations there: the ``command`` and
``host`` makers, every coding-agent CLI as a maker type and ``agent:CLI`` as an
oracle. ``import goalkeeper`` imports it, so a registry lookup never depends on
import order. ``ScriptedMaker``/``ScriptedOracle`` live in
``goalkeeper.adapters.scripted``.
"""

from . import agents  # noqa: F401 - registers the coding-agent makers and the agent: oracle
from .makers import (
    MAKERS,
    CommandMaker,
    HostMaker,
    Maker,
    MakerRequest,
    MakerResult,
    get_maker,
    register_maker,
)

__all__ = ["MAKERS", "CommandMaker", "HostMaker", "Maker", "MakerRequest", "MakerResult", "get_maker",
           "register_maker"]
