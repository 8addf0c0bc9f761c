"""``goalkeeper new``: scaffold a spec interactively, or from flags / a JSON answers file.

Prompts only for what the answers and flags left out, and only on a terminal;
without one (or with ``--no-input``) the gaps are derived and marked
``assumption: true``. That includes each fact's initial value, so a fresh spec
can be planned at once (``goalkeeper plan spec.yaml``; ``plan --observe`` plans
from the world instead). Exit 0 written, 1 error, 2 usage.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..errors import ConfigError
from ..model.lint import lint
from ..scaffold import (
    TARGETS,
    Answers,
    answers_from_data,
    assume_initial,
    derive,
    guess_type,
    parse_action,
    parse_assignments,
    parse_condition,
    parse_conditions,
    parse_fact,
    parse_observer,
    referenced_facts,
    render_spec,
    undescribed_facts,
)
from ..store.atomic import USER_FILE, read_data, write_text_atomic
from ._common import EXIT_USAGE, fail, handle_errors, out_console

_TYPES = click.Choice(["bool", "int", "float", "str"])


@click.command("new")
@click.option("-o", "--output", "output", default="spec.yaml", show_default=True,
              type=click.Path(dir_okay=False), help="Where to write the spec.")
@click.option("--answers", "answers_path", type=click.Path(dir_okay=False, exists=True),
              help="JSON answers: {name, goal, facts, actions, target}.")
@click.option("--name", help="Agent name.")
@click.option("--goal", "goals", multiple=True, help="Goal condition, e.g. health_ok=true or lcp_ms<2500.")
@click.option("--fact", "facts", multiple=True,
              help="NAME[:TYPE][=OBSERVER]; OBSERVER is a shell command, file:PATH, http(s)://URL "
                   "or python:module:function.")
@click.option("--action", "actions", multiple=True,
              help="'NAME[(cost=N,destructive,confirm)]: PRE -> EFFECTS [| RUN]', e.g. "
                   "'deploy: built=true -> deployed=true | ./deploy.sh'.")
@click.option("--initial", "initials", multiple=True, metavar="FACT=VALUE",
              help="A fact's initial value (what `plan` assumes without --observe); inferred when left out.")
@click.option("--target", type=click.Choice(TARGETS), help="Runtime the spec is built for.")
@click.option("--no-input", is_flag=True, help="Never prompt; derive what is missing.")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
@handle_errors
def command(output: str, answers_path: str | None, name: str | None, goals: tuple[str, ...],
            facts: tuple[str, ...], actions: tuple[str, ...], initials: tuple[str, ...], target: str | None,
            no_input: bool, force: bool) -> None:
    """Scaffold a spec: goal (observable facts), facts and their observers, actions, target."""
    out = Path(output)
    if out.exists() and not force:
        fail(f"{out} exists; pass --force to overwrite it or -o another path", EXIT_USAGE)
    a = _load_answers(answers_path)
    a.name = name or a.name
    a.target = target or a.target
    a.goal.update(dict(parse_condition(g) for g in goals))
    for text in facts:
        fname, entry = parse_fact(text)
        a.facts.setdefault(fname, {}).update(entry)
    a.actions.update(dict(parse_action(t) for t in actions))
    for text in initials:
        fact, value = parse_condition(text)
        if isinstance(value, dict):
            raise ConfigError(f"--initial {text!r}: give a value (FACT=VALUE), not a condition")
        a.facts.setdefault(fact, {})["initial"] = value
    interactive = not no_input and sys.stdin.isatty()
    if interactive:
        _ask(a, default_name=out.parent.name if out.stem == "spec" else out.stem)
    a = derive(a, initial=False)
    _initial_values(a, ask=interactive)
    assume_initial(a)  # what neither the author nor the actions settled
    text, spec = render_spec(a)
    write_text_atomic(out, text, mode=USER_FILE)  # the user's file: their umask decides, not 0600
    out_console.print(f"wrote {out}: {len(spec.facts)} facts, {len(spec.actions)} actions", markup=False)
    for f, d in spec.facts.items():
        if d.assumption:
            out_console.print(f"  assumption: facts.{f} ({d.observe.describe() if d.observe else '-'})",
                              markup=False)
    for note in a.notes:
        out_console.print(f"  assumption: {note}", markup=False)
    for issue in lint(spec):
        out_console.print(f"  {issue.severity}: {issue.path}: {issue.message}", markup=False)
    out_console.print(f"next: goalkeeper build {out} --target {a.target}", markup=False)


def infer_initial(a: Answers, fact: str) -> tuple[Any, str] | None:
    """A fact's likely value before the agent acts, and why; None when nothing fits (numbers, text).

    A fact some action sets is assumed not set yet; a goal fact no action sets is
    assumed not to hold yet; a fact that only preconditions name (the world's,
    no action changes it) is assumed to be as they need it.
    """
    entry = a.facts.get(fact, {})
    if entry.get("type", "bool") != "bool":
        return None
    effects = [act["effects"][fact] for act in a.actions.values() if fact in (act.get("effects") or {})]
    if effects and isinstance(effects[0], bool):
        return (not effects[0]), "no action has set it yet"
    goal = a.goal.get(fact)
    if isinstance(goal, bool):
        return (not goal), "the goal does not hold yet"
    pres = [act["pre"][fact] for act in a.actions.values() if isinstance((act.get("pre") or {}).get(fact), bool)]
    if pres:
        return pres[0], "no action sets it: assumed to be as the preconditions need it"
    return None


def _initial_values(a: Answers, *, ask: bool) -> None:
    """Give every fact an initial value (asked on a terminal, else inferred and marked an assumption)."""
    for fact, entry in a.facts.items():
        if "initial" in entry or entry.get("diagnostic"):
            continue  # a diagnostic fact's initial value is a belief the run acts on: only the author sets it
        guess = infer_initial(a, fact)
        if ask:
            hint = f"; empty: {str(guess[0]).lower()}, {guess[1]}" if guess else "; empty: none (plan --observe)"
            text = click.prompt(f"Initial value of {fact} ({entry.get('type', 'bool')}{hint})", default="",
                                show_default=False).strip()
            if text:
                entry["initial"] = parse_condition(f"{fact}={text}")[1]
                continue
        if guess is not None:
            entry["initial"] = guess[0]  # a guess, said in the notes; the fact's own definition stays the author's
            a.notes.append(f"facts.{fact}.initial: {str(guess[0]).lower()} ({guess[1]})")
        # else: assume_initial() gives it the value before any action, and says so


def _load_answers(path: str | None) -> Answers:
    if path is None:
        return Answers()
    data = read_data(path, json_only=True, refuse=lambda problem: ConfigError(f"{path}: {problem}"))
    return answers_from_data(data)


def _ask_until(prompt: str, parse: object, default: str | None = None) -> object:
    """Prompt until ``parse`` accepts the text (a ConfigError message explains why not)."""
    while True:
        text = click.prompt(prompt, default=default, show_default=default is not None)
        try:
            return parse(text)  # type: ignore[operator]
        except ConfigError as e:
            click.echo(f"  {e}")


def _ask(a: Answers, default_name: str) -> None:
    """Ask for whatever is missing, in the order of the four inputs."""
    if not a.name:
        a.name = click.prompt("Agent name", default=default_name or "agent")
    if not a.goal:
        click.echo("Goal: observable facts and the values they must reach "
                   "(e.g. health_ok=true, lcp_ms<2500). Empty line to finish.")
        while True:
            text = click.prompt("  goal condition", default="", show_default=False)
            if not text.strip():
                if a.goal:
                    break
                click.echo("  the goal needs at least one condition")
                continue
            try:
                fact, rhs = parse_condition(text)
            except ConfigError as e:
                click.echo(f"  {e}")
                continue
            a.goal[fact] = rhs
    _ask_facts(a)
    if not a.actions:
        click.echo("Actions: what the agent can do. Empty name to finish.")
        while True:
            name = click.prompt("  action name", default="", show_default=False).strip()
            if not name:
                break
            entry: dict[str, object] = {
                "pre": _ask_until("    preconditions (e.g. built=true; empty for none)", parse_conditions, ""),
                "effects": _ask_until("    effects (e.g. deployed=true)", parse_assignments),
            }
            run = click.prompt("    command to run (empty: none)", default="", show_default=False)
            if run.strip():
                entry["run"] = run.strip()
            cost = click.prompt("    cost", default=1.0, type=float)
            if cost != 1.0:
                entry["cost"] = cost
            if click.confirm("    destructive?", default=False):
                entry["destructive"] = True
                entry["confirm"] = click.confirm("    needs approval before it runs?", default=True)
            a.actions[name] = entry
        _ask_facts(a)
    if not a.target:
        a.target = click.prompt("Target runtime", type=click.Choice(TARGETS), default="code")


def _ask_facts(a: Answers) -> None:
    for fact in undescribed_facts(a):
        entry = a.facts.setdefault(fact, {})
        if "type" not in entry:
            entry["type"] = click.prompt(f"Type of fact {fact}", type=_TYPES, default=guess_type(a, fact))
        text = click.prompt(
            f"How is {fact} observed? (shell command, file:PATH or http(s)://URL; empty = assume)",
            default="", show_default=False,
        ).strip()
        if text:
            entry["observe"] = parse_observer(text)
    for fact in list(a.facts):
        if fact not in referenced_facts(a) and "observe" not in a.facts[fact]:
            del a.facts[fact]
