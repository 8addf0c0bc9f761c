"""The added Python read as a tree: what no line-by-line reading sees (see :mod:`.scan`).

* code under test that runs code built at run time: ``exec``/``eval``/``compile`` of anything but a
  literal in any spelling (``builtins.exec``, ``getattr``, ``source=``), ``marshal.loads``,
  ``types.CodeType`` (a module's own ``eval`` or ``from re import compile`` is none of these);
* an ``__eq__``/``__ne__`` that never reads what it is compared with: its values equal whatever a
  test expects;
* ``TYPE_CHECKING`` bound to anything but ``False``: coverage leaves ``if TYPE_CHECKING:`` out;
* runner names folded from constants (``+``, ``%``, f-strings, ``"_".join``).
"""

from __future__ import annotations

import ast
import re

from .protect import Finding

__all__ = ["RUNNER_MODULES", "RUNNER_STRINGS", "RUNNER_TEXT", "ast_findings"]

RUNNER_MODULES = frozenset({"pytest", "_pytest", "pluggy", "unittest", "coverage", "nose", "nose2", "py"})
# As a *string* (``"pytest" in sys.modules``), only names no everyday text uses: "coverage" is an
# insurance term and "py" a file extension (``py.typed``); importing them is still seen.
RUNNER_STRINGS = RUNNER_MODULES - {"coverage", "py"}
RUNNER_TEXT = re.compile(r"PYTEST_CURRENT_TEST|PYTEST_VERSION|PYTEST_XDIST|COV_CORE_|UNITTEST_"
                          r"|\bgc\s*\.\s*get_(?:objects|referrers|referents)\b|\bimport\s+ctypes\b|\bfrom\s+ctypes\b"
                          r"|GOALKEEPER_|COVERAGE_(?:FILE|RCFILE|PROCESS)|\bsys\s*\.\s*_getframe\b|\.f_back\b"
                          r"|\.f_locals\b|\.f_globals\b|\btb_frame\b|\binspect\s*\.\s*(?:stack|currentframe|getouterframes)\b"
                          r"|\b__import__\s*\(|\bgk_probe\b|\bCoverage\s*\.\s*current\b|\bsys\s*\.\s*gettrace\b"
                          r"|/proc/self/fd\b")


def ast_findings(rel: str, text: str, wanted: set[int]) -> list[Finding]:
    """Code under test that runs text built at run time, or makes values that equal anything."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    bound = _bound_names(tree)  # a module's own eval() or `from re import compile` is no builtin
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}  # one pass, not one per name
    out: list[Finding] = []

    def add(kind: str, line: int, detail: str) -> None:
        out.append(Finding(kind, rel, detail, line))

    for node in ast.walk(tree):
        line = getattr(node, "lineno", None)
        if line not in wanted:
            continue
        if isinstance(node, ast.BinOp | ast.JoinedStr | ast.Call):
            folded = _fold(node)
            if folded and (RUNNER_TEXT.search(folded) or folded.split(".")[0] in RUNNER_STRINGS):
                add("runner", line, f"code under test spells a runner name in pieces ({folded[:40]!r})")
        if _binds_type_checking(node):
            add("suppression", line, "binds TYPE_CHECKING to something but False: coverage leaves `if TYPE_CHECKING:` "
                                     "blocks out, so code under one is never measured")
        elif isinstance(node, ast.Call) and (what := _runs_text(node, bound)):
            add("opaque", line, f"code under test runs code built at run time ({what}): no scan reads what it "
                                "does; write it as source")
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in ("exec", "eval") \
                and node.id not in bound and id(node) not in called:
            add("opaque", line, f"code under test passes {node.id} around: code built at run time runs through it")
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                fn = _eq_def(item)
                if fn is not None and getattr(item, "lineno", None) in wanted and _equals_anything(fn):
                    add("equality", item.lineno, f"{node.name}.{_eq_name(item)} never looks at what it is compared "
                                                 "with: its values compare equal to anything a test expects")
    return out


def _bound_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _binds_type_checking(node: ast.AST) -> bool:
    """TYPE_CHECKING made true by the code: any binding but ``= False`` and ``from typing import``."""
    if isinstance(node, ast.Assign | ast.AnnAssign):
        value = node.value
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        named = any(isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING" for t in targets) or any(
            isinstance(n, ast.Name) and n.id == "TYPE_CHECKING" for t in targets for n in ast.walk(t))
        return named and not (isinstance(value, ast.Constant) and value.value is False)
    if isinstance(node, ast.NamedExpr | ast.For | ast.With | ast.comprehension):
        target = node.target if not isinstance(node, ast.With) else None
        return target is not None and any(isinstance(n, ast.Name) and n.id == "TYPE_CHECKING" for n in ast.walk(target))
    if isinstance(node, ast.ImportFrom) and node.module not in ("typing", "typing_extensions"):
        return any(a.asname == "TYPE_CHECKING" or (a.asname is None and a.name == "TYPE_CHECKING") for a in node.names)
    if isinstance(node, ast.Import):
        return any(a.asname == "TYPE_CHECKING" for a in node.names)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
        return len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value == "TYPE_CHECKING"
    return False


def _eq_def(item: ast.stmt) -> ast.FunctionDef | ast.Lambda | None:
    if isinstance(item, ast.FunctionDef) and item.name in ("__eq__", "__ne__"):
        return item
    if isinstance(item, ast.Assign) and isinstance(item.value, ast.Lambda) and any(
            isinstance(t, ast.Name) and t.id in ("__eq__", "__ne__") for t in item.targets):
        return item.value
    return None


def _eq_name(item: ast.stmt) -> str:
    if isinstance(item, ast.FunctionDef):
        return item.name
    return next(t.id for t in item.targets if isinstance(t, ast.Name)) if isinstance(item, ast.Assign) else "__eq__"


def _equals_anything(fn: ast.FunctionDef | ast.Lambda) -> bool:
    """An ``__eq__`` that never reads its other operand (but one that only defers: NotImplemented)."""
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    if len(params) < 2:
        return bool(fn.args.vararg is None)  # it cannot even receive the other operand
    other = params[1]
    body: list[ast.AST] = [fn.body] if isinstance(fn, ast.Lambda) else list(fn.body)
    if any(isinstance(n, ast.Name) and n.id == other for b in body for n in ast.walk(b)):
        return False
    returns = [b.value for b in body if isinstance(b, ast.Return)] if isinstance(fn, ast.FunctionDef) else body
    return not all(isinstance(r, ast.Name) and r.id == "NotImplemented" for r in returns if r is not None)


def _fold(node: ast.expr, depth: int = 0) -> str | None:
    """The value of a ``+`` of string literals (``"PYTEST_" + "CURRENT_TEST"``), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if depth > 50:
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        a, b = _fold(node.left, depth + 1), _fold_args(node.right, depth + 1)
        if a is None or b is None:
            return None
        if isinstance(node.op, ast.Add):
            return a + b[0] if len(b) == 1 else None
        try:
            return a % (tuple(b) if len(b) != 1 else b[0])
        except (TypeError, ValueError):
            return None
    if isinstance(node, ast.JoinedStr):  # f"PYTEST_{'CURRENT'}_TEST"
        parts = [_fold(v.value if isinstance(v, ast.FormattedValue) else v, depth + 1) for v in node.values]
        return "".join(parts) if all(p is not None for p in parts) else None  # type: ignore[arg-type]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
            and len(node.args) == 1):  # "_".join(["PYTEST", "CURRENT", "TEST"])
        sep, items = _fold(node.func.value, depth + 1), _fold_args(node.args[0], depth + 1)
        return sep.join(items) if sep is not None and items is not None else None
    return None


def _fold_args(node: ast.expr, depth: int) -> list[str] | None:
    if isinstance(node, ast.Tuple | ast.List):
        items = [_fold(e, depth + 1) for e in node.elts]
        return None if any(i is None for i in items) else items  # type: ignore[return-value]
    one = _fold(node, depth)
    return None if one is None else [one]


def _runs_text(call: ast.Call, bound: set[str]) -> str | None:
    """Which builtin runs non-literal code here (exec/eval/compile, ``builtins.exec``, marshal), or None."""
    f = call.func
    name = None
    if isinstance(f, ast.Name) and f.id in ("exec", "eval", "compile") and f.id not in bound:
        name = f.id
    elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        if f.value.id in ("builtins", "__builtins__") and f.attr in ("exec", "eval", "compile"):
            name = f"builtins.{f.attr}"
        elif f.value.id == "marshal" and f.attr in ("loads", "load"):
            return f"marshal.{f.attr}"  # bytecode from data: no source at all
        elif f.value.id == "types" and f.attr in ("CodeType", "FunctionType"):
            return f"types.{f.attr}"
    elif isinstance(f, ast.Name) and f.id == "getattr" and len(call.args) >= 2 and isinstance(call.args[1], ast.Constant) \
            and call.args[1].value in ("exec", "eval", "compile"):
        return f"getattr(..., {call.args[1].value!r})"
    if name is None:
        return None
    source = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "source"), None)
    return None if source is None or isinstance(source, ast.Constant) else name
