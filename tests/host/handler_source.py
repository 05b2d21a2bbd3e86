"""What CPython can say of an interrupt handler's allocations: its source builds nothing (the heap-locked run on the
MicroPython VM, tests/host/test_mcu_beam.py, is the proof)."""

import ast
from pathlib import Path

from tests.conftest import ROOT


def function(relative_path, name):
    """A function's definition in a source file of the repository."""
    tree = ast.parse(Path(ROOT / relative_path).read_text())
    return next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == name)


def code(definition):
    """A function's statements, its docstring aside."""
    body = definition.body
    return body[1:] if ast.get_docstring(definition) else body


def assert_builds_nothing(definition):
    allocating = (ast.List, ast.Dict, ast.Set, ast.Tuple, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp,
                  ast.JoinedStr, ast.Lambda, ast.Try, ast.Raise, ast.Starred)
    for node in (node for statement in code(definition) for node in ast.walk(statement)):
        assert not isinstance(node, allocating), ast.unparse(node)
        assert not (isinstance(node, ast.Constant) and isinstance(node.value, (float, str, bytes))), ast.unparse(node)
        if isinstance(node, ast.Call):
            assert isinstance(node.func, ast.Attribute) and not node.keywords, ast.unparse(node)
