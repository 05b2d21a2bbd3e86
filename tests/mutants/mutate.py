"""Mutants of the controller and its tableau: hand-made ones (catalogue.py) and one for each site where a
small change of an operator, a constant or a call makes another program (Python's ast), each applied to a copy
of the firmware and the sim board, never to the tree itself."""

import ast
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGETS = ("firmware/controller.py", "firmware/rules.py", "firmware/tableau.py")
_SWAPS = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
          ast.GtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
          ast.Add: ast.Sub, ast.Sub: ast.Add, ast.And: ast.Or, ast.Or: ast.And, ast.LShift: ast.RShift,
          ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr, ast.Mod: ast.FloorDiv}


def copy_tree(dest):
    """The Python sources a sim board runs (firmware/, boards/), without the compiled modules: a mutant of
    firmware/tableau.py must run as written."""
    for folder in ("firmware", "boards"):
        shutil.copytree(ROOT / folder, Path(dest) / folder, ignore=shutil.ignore_patterns(
            "*.so", "__pycache__", "*.pxd", "*.c"))
    return Path(dest)


def _sites(tree):
    """(node, description, apply) for every mutable site of a module, in a fixed order; apply() mutates the
    node in place and undo() puts it back."""
    found = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef):
            continue
        for node in ast.walk(func):
            line = getattr(node, "lineno", func.lineno)
            if isinstance(node, ast.Compare):
                for i, op in enumerate(node.ops):
                    if type(op) in _SWAPS:
                        found.append((line, "%s -> %s" % (type(op).__name__, _SWAPS[type(op)].__name__),
                                      _swap_in_list(node.ops, i)))
            elif isinstance(node, (ast.BinOp, ast.AugAssign, ast.BoolOp)) and type(node.op) in _SWAPS:
                found.append((line, "%s -> %s" % (type(node.op).__name__, _SWAPS[type(node.op)].__name__),
                              _swap_attr(node, "op")))
            elif isinstance(node, ast.Constant) and type(node.value) is int:
                found.append((line, "%d -> %d" % (node.value, node.value + 1), _bump(node)))
            elif isinstance(node, ast.Constant) and type(node.value) is bool:
                found.append((line, "%s -> %s" % (node.value, not node.value), _flip(node)))
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                found.append((line, "not dropped", _swap_attr(node, "op", ast.UAdd)))
            if isinstance(node, (ast.FunctionDef, ast.If, ast.For, ast.While)):
                for i, stmt in enumerate(node.body):
                    if isinstance(stmt, (ast.Expr, ast.AugAssign, ast.Assign, ast.Return)) and not (
                            isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
                        found.append((stmt.lineno, "statement removed", _remove(node.body, i)))
    return found


def _swap_in_list(ops, i):
    def apply():
        old = ops[i]
        ops[i] = _SWAPS[type(old)]()
        return lambda: ops.__setitem__(i, old)
    return apply


def _swap_attr(node, attr, to=None):
    def apply():
        old = getattr(node, attr)
        setattr(node, attr, (to or _SWAPS[type(old)])())
        return lambda: setattr(node, attr, old)
    return apply


def _bump(node):
    def apply():
        node.value += 1
        return lambda: setattr(node, "value", node.value - 1)
    return apply


def _flip(node):
    def apply():
        node.value = not node.value
        return lambda: setattr(node, "value", not node.value)
    return apply


def _remove(body, i):
    def apply():
        old = body[i]
        body[i] = ast.Pass()
        ast.copy_location(body[i], old)
        return lambda: body.__setitem__(i, old)
    return apply


def generated():
    """(name, path, source) of every generated mutant of the targets."""
    for path in TARGETS:
        tree = ast.parse((ROOT / path).read_text())
        for n, (line, what, apply) in enumerate(_sites(tree)):
            undo = apply()
            source = ast.unparse(tree)
            undo()
            yield "%s:%d #%d %s" % (path, line, n, what), path, source


def patched(path, old, new):
    """A hand-made mutant's source: the file with its one text change."""
    text = (ROOT / path).read_text()
    if text.count(old) != 1:
        raise ValueError("%s: the mutant's text %r is not found exactly once" % (path, old))
    return text.replace(old, new)
