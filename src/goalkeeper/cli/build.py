"""``goalkeeper build SPEC --target llm|code|hybrid [-o DIR]``."""

from __future__ import annotations

from pathlib import Path

import click

from ..build import TARGETS, build, write_build
from ..model.loader import load_spec
from ..model.state import load_state
from ._common import echo_json, handle_errors, out_console


@click.command("build")
@click.argument("spec_path", metavar="SPEC", type=click.Path(dir_okay=False))
@click.option("--target", "-t", type=click.Choice(sorted(TARGETS)), required=True,
              help="llm: system prompt + answer schema; code: action table + standalone "
                   "runner.py; hybrid: proposer prompt + validator contract + runner.py.")
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Output folder (default: build/<target> next to SPEC).")
@click.option("--state", "state_path", type=click.Path(dir_okay=False),
              help="State JSON for the document's first plan (default: initial values).")
@click.option("--json", "as_json", is_flag=True, help="Print the files written as one JSON object.")
@handle_errors
def command(spec_path: str, target: str, out_dir: str | None, state_path: str | None,
            as_json: bool) -> None:
    """Emit SPEC.md (state schema, action contract, loop, replan, escalation) and the
    TARGET runtime's deliverables. Same spec, same bytes."""
    spec = load_spec(spec_path)
    state = load_state(spec, state_path) if state_path else None
    files = build(spec, target, source=Path(spec_path).name, state=state)
    out = Path(out_dir) if out_dir else Path(spec_path).parent / "build" / target
    written = write_build(files, out)
    if as_json:
        echo_json({"target": target, "out": str(out), "files": [p.name for p in written]})
        return
    for p in written:
        out_console.print(f"  wrote {p}", markup=False)
    hint = {
        "code": f"run it: python {out / 'runner.py'} --workdir {Path(spec_path).parent}",
        "llm": f"give {out / 'system_prompt.md'} to the worker as its system prompt",
        "hybrid": f"validate proposals with: python {out / 'runner.py'} check PROPOSAL.json",
    }[target]
    out_console.print(f"built {target} for {spec.name}: {hint}", markup=False)
