"""The package's import graph, read with `ast` (nothing is imported): no cycle, and reporters that
depend only on the data model."""
import ast
from pathlib import Path

from conftest import REPO

PACKAGE = REPO / "trnready"
# What a reporter may import from the package: the records it renders and the pure tables they use.
MODEL_LEVEL = {"trnready.model", "trnready.filekinds", "trnready.reporters"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """module -> package modules it imports anywhere in its body (lazy imports inside functions count)."""
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_pkg = path.name == "__init__.py"
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".") if is_pkg else name.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                # `from . import x` names a submodule when one exists, else an attribute of the package
                targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in files else mod for a in node.names]
            for t in targets:
                while t and t not in files:  # `import trnready.readers.python as p` -> that module
                    t = t.rpartition(".")[0]
                if t and t != name:
                    edges.add(t)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]):
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def test_the_package_import_graph_has_no_cycle():
    graph = import_graph()
    assert "trnready.readers.python" in graph and graph["trnready.api"]  # the parse saw the package
    cycle = find_cycle(graph)
    assert cycle is None, " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_reporters_import_only_the_data_model():
    graph = import_graph()
    reporters = [m for m in graph if m.startswith("trnready.reporters")]
    assert len(reporters) >= 6
    for m in reporters:
        outside = {t for t in graph[m] if t.startswith("trnready") and not t.startswith("trnready.reporters")}
        assert outside <= MODEL_LEVEL, (m, outside - MODEL_LEVEL)


def test_the_benchmarks_are_not_in_the_installed_package():
    assert not (PACKAGE / "bench").exists() and (REPO / "bench" / "speed.py").is_file()


def test_cli_start_up_does_not_load_the_manifest_parsers():
    """`packaging` (requirements parsing) is loaded only when a manifest or shell-like file is read."""
    import subprocess
    import sys

    code = ("import sys, trnready.cli, trnready.reporters.text, trnready.reporters.json, trnready.reporters.html;"
            "print('packaging' in sys.modules, 'trnready.requirements' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.stdout.split() == ["False", "False"], proc.stderr
