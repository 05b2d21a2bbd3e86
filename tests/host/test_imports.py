"""The project's modules import one another without a circle, and `sabot` loads the simulator only for `sabot sim`.

The graph is read with ast from the sources of firmware/, boards/, host_tools/sabot/ (the package `sabot`) and
bench/ (bench/vm's scripts import their siblings by bare name, as they run). An import statement is module-level
when it runs as the module loads (at the top, or in an if, try or class body there), function-level when it is
inside a def; `if TYPE_CHECKING:` imports never run and are not counted. Importing a.b.c runs the packages a and
a.b first: that counts as an import of each, but from a module inside a.b itself, whose packages began loading
before it. __import__ with a computed name (firmware/startup.py's board) is not
seen. Modules of the standard library and of other distributions are left out: only the project's own.
"""

import ast
import subprocess
import sys

import pytest

from tests.conftest import ROOT

TREES = {"firmware": "firmware", "boards": "boards", "sabot": "host_tools/sabot", "bench": "bench"}


def _modules():
    """{module name: path} of every project source."""
    found = {}
    for package, folder in TREES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = (package,) + path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _in_type_checking(node, parents):
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return True
    return False


def _in_function(node, parents):
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return True
    return False


def _targets(name, module, path, modules):
    """The project modules an import of `name` from `module` runs: the module and each package above it, but for
    the packages that hold `module` itself, which began loading before it ran."""
    if name not in modules and "." not in name and module.startswith("bench.vm."):
        name = "bench.vm." + name  # a script's sibling, by bare name
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in modules
            and not module.startswith(".".join(parts[:i]) + ".")}


def import_graph():
    """({module: set of modules it imports as it loads}, {module: set it imports inside functions})."""
    modules = _modules()
    top = {name: set() for name in modules}
    inner = {name: set() for name in modules}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base
                                                                                                   else []))
                names = [base] + [base + "." + alias.name for alias in node.names]
            else:
                continue
            if _in_type_checking(node, parents):
                continue
            into = inner if _in_function(node, parents) else top
            for name in names:
                into[module] |= _targets(name, module, path, modules) - {module}
    return top, inner


def cycles(graph):
    """Every strongly connected set of more than one module (or a module importing itself), as sorted lists."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            members = []
            while True:
                other = stack.pop()
                on.discard(other)
                members.append(other)
                if other == node:
                    break
            if len(members) > 1 or node in graph[node]:
                found.append(sorted(members))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _reached(graph, start):
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(graph[node])
    return seen


@pytest.mark.req("H-SIM")
def test_no_circle_among_the_imports_a_module_runs_as_it_loads():
    top, inner = import_graph()
    assert len(top) > 100 and sum(map(len, top.values())) > 300 and sum(map(len, inner.values())) > 10
    assert cycles(top) == []


@pytest.mark.req("H-SIM")
def test_no_circle_either_with_the_imports_inside_functions():
    """Issue 34: a module that imports another inside a function, which imports it back, is a circle too (it only
    runs later): the transports (mpremote_link.py, production_link.py) and what both say (shoe_said.py) sit below the
    commands that use them."""
    top, inner = import_graph()
    both = {name: set(top.get(name, ())) | set(inner.get(name, ())) for name in set(top) | set(inner)}
    for name in list(both):
        for other in both[name]:
            both.setdefault(other, set())
    assert cycles(both) == []


@pytest.mark.req("H-SIM")
def test_the_sim_board_and_the_virtual_board_import_each_other_not_even_inside_a_function():
    """The circle sim board -> virtual board -> runner -> sim board is gone: the board convention's start() is the
    virtual board's, not the sim board's model."""
    top, inner = import_graph()
    both = {module: top[module] | inner[module] for module in top}
    assert [c for c in cycles(both) if any(m.startswith("boards.sim.") for m in c)] == []


@pytest.mark.req("H-SIM")
def test_sabot_loads_the_simulator_only_for_sabot_sim():
    """The words for people, a table of data the sim shares with the host's tools, are firmware/format's."""
    top, _ = import_graph()
    assert "boards.sim.runner" in _reached(top, "sabot.simulate")
    assert not [m for m in _reached(top, "sabot.cli") if m.startswith("boards.sim.")]
    loaded = subprocess.run([sys.executable, "-c", "import sys, sabot.cli\nsabot.cli.parser()\n"
                             "print(sorted(m for m in sys.modules if m.startswith('boards')))"],
                            capture_output=True, text=True, check=True, cwd=ROOT)
    assert set(ast.literal_eval(loaded.stdout)) == set()  # not even the boards package


@pytest.mark.req("H-SIM")
def test_no_module_of_the_host_tools_grows_past_four_hundred_lines():
    """Issue 21: small modules with one job; a module past 400 lines is split where its jobs part."""
    long = {str(path.relative_to(ROOT)): n for path in (ROOT / "host_tools").rglob("*.py")
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}


READERS = ("sabot.verify", "sabot.report", "sabot.logview", "sabot.checkpoints", "sabot.receipts", "sabot.fleet.ingest",
           "sabot.cagnotte")


@pytest.mark.req("H-VERIFY")
def test_the_readers_load_nothing_of_the_shoes_controller_its_shell_or_its_boards():
    """The verifier is a second implementation of the rules: what it reads of the firmware is its formats and words
    (firmware/format/, the layouts), never the controller it checks (firmware/controller.py, rules.py), its shell,
    the checkpoints' writer or a board (issue 34)."""
    loaded = subprocess.run([sys.executable, "-c", "import sys\n" + "".join("import %s\n" % m for m in READERS)
                             + "print(' '.join(sorted(sys.modules)))"], capture_output=True, text=True, cwd=ROOT,
                            check=True).stdout.split()
    assert set(READERS) <= set(loaded)
    assert [m for m in loaded if m in ("firmware.controller", "firmware.rules", "firmware.shell",
                                       "firmware.checkpoint_hook", "firmware.runtime", "firmware.checkpoints")
            or m.split(".")[0] == "boards"] == []


@pytest.mark.req("H-VERIFY")
def test_the_words_of_the_controllers_phases_are_keyed_by_its_own_values():
    from firmware import controller
    from firmware.format import words

    assert [words.PHASES[phase][0] for phase in (controller.IDLE, controller.BETS, controller.DEALING,
                                                 controller.CLOSED)] == [
        "no shoe", "bets open", "coup under way", "closed after the stop card"]
