"""The import graph: no circles (function-level imports included, imports for type checkers only left out)
and every import points down the layers: statistics, views and the contract; the game folders; strategies;
the registry, the runner, experiments and the specs; reports; the application layer; the command line."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("simulator", "strategies", "reports")


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _edges(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> our modules it imports anywhere in its text (top level, functions, conditionals)."""
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        tree = ast.parse(path.read_text())
        typing_only = {  # `if TYPE_CHECKING:` blocks: read by type checkers, never run
            id(n)
            for block in ast.walk(tree)
            if _type_checking(block)
            for stmt in block.body
            for n in ast.walk(stmt)
        }
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    full = f"{node.module}.{a.name}"
                    targets.add(full if full in modules else node.module)
        edges[name] = {t for t in targets if t in modules and t != name}
    return edges


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _layer(module: str) -> int:
    parts = module.split(".")
    if parts[0] == "reports":
        return 6
    if parts[0] == "strategies":
        return 3
    if module in (
        "simulator",
        "simulator.cli",
        "simulator.flags",
        "simulator.shell",
        "simulator.console",
        "simulator.__main__",
    ):
        return 8
    if module in ("simulator.app", "simulator.catalog"):
        return 7
    if module in (
        "simulator.runner",
        "simulator.inert",
        "simulator.experiments",
        "simulator.ladders",
        "simulator.precision",
        "simulator.replay",
        "simulator.registry",
        "simulator.bench",
        "simulator.testing",
        "simulator.specs",
        "simulator.outputs",
        "simulator.provenance",
        "simulator.results",
    ):
        return 5
    if len(parts) == 3:  # a game folder: every module of it, its Game included, sits below the strategies
        return 2
    return 1  # errors, version, options, stats, summaries, views, contract, driver, matches, shared helpers


def test_no_import_circles() -> None:
    edges = _edges(_modules())
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(edges[m]):
            if state.get(t) == 1:
                raise AssertionError("import circle: " + " -> ".join([*stack[stack.index(t) :], t]))
            if t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m)


def test_imports_point_down_the_layers() -> None:
    edges = _edges(_modules())
    upward = sorted(
        f"{m} ({_layer(m)}) imports {t} ({_layer(t)})"
        for m, ts in edges.items()
        for t in ts
        if _layer(t) > _layer(m)
    )
    assert not upward, "\n".join(upward)


def test_the_checks_see_imports() -> None:
    edges = _edges(_modules())
    assert "simulator.contract" in edges["simulator.runner"] and "simulator.app" in edges["simulator"]
    assert "strategies.fortytwo" in edges["simulator.registry"]
