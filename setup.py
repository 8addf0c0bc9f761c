"""Build the optional compiled planner core; without a C compiler, install without it.

Everything else is configured in pyproject.toml. ``optional=True`` turns a failed
compile into a warning, and goalkeeper then plans with its pure-Python core.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "goalkeeper.planning._core",
            ["src/goalkeeper/planning/_core.c"],
            optional=True,
        )
    ]
)
