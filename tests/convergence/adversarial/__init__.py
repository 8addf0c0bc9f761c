"""The red team's adversarial suite: real cheating makers against the real CLI.

Every cheat must end *not converged*; the honest makers must always converge.
See README.md in this directory for the classes and how a scenario runs.
"""
