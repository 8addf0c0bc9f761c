"""Adapters: makers (command, later coding-agent CLIs) and the shipped test doubles.

``ScriptedMaker``/``ScriptedOracle`` live in ``goalkeeper.adapters.scripted``
(imported lazily there so this package stays free of import cycles).
"""

from .makers import (
    MAKERS,
    CommandMaker,
    Maker,
    MakerRequest,
    MakerResult,
    get_maker,
    register_maker,
)

__all__ = ["MAKERS", "CommandMaker", "Maker", "MakerRequest", "MakerResult", "get_maker", "register_maker"]
