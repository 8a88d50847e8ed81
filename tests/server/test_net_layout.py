"""The layout of ``net/`` shows its architecture (issue 11): no module imports another that
imports it back, and the club's domain, its store and its sync never load Textual or
asyncssh."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

NET = Path(__file__).resolve().parents[2] / "net"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(NET.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_imports(path: Path) -> set[str]:
    """The net modules ``path`` imports when it runs: at the top or inside a function, but
    not under ``if TYPE_CHECKING`` (annotations only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only |= {id(n) for n in ast.walk(node)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "net" or node.module.startswith("net."):
                for alias in node.names:  # "from net.club import pool_tables": a module
                    sub = f"{node.module}.{alias.name}"
                    found.add(sub if (NET.parent / Path(*sub.split("."))).with_suffix(".py")
                              .exists() else node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("net.")}
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in NET.rglob("*.py") if "__pycache__" not in p.parts}
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for target in runtime_imports(path):
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in modules and target != name:
                targets.add(target)
        edges[name] = targets
    # importing a submodule runs its packages' __init__ first
    for name in modules:
        for target in list(edges[name]):
            parts = target.split(".")
            for i in range(1, len(parts)):
                pkg = ".".join(parts[:i])
                if pkg in modules and pkg != name and not name.startswith(pkg + "."):
                    edges[name].add(pkg)
    return edges


def test_no_module_of_net_imports_one_that_imports_it_back():
    edges = graph()
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(edges):
        if start not in state:
            visit(start, [start])
    assert cycles == [], "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_domain_the_store_and_the_sync_load_neither_textual_nor_asyncssh():
    code = ("import sys, net.club, net.club.table_room, net.club.house, net.store, "
            "net.club_sync.node, net.club_sync.journal; "
            "print(sorted(m for m in ('textual', 'asyncssh') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=NET.parent, check=True)
    assert out.stdout.strip() == "[]"


def test_the_packages_are_the_architecture():
    packages = {p.name for p in NET.iterdir() if (p / "__init__.py").exists()}
    assert {"club", "store", "club_sync", "ssh", "screens", "commands", "bench"} <= packages
    loose = {p.name for p in NET.glob("*.py")} - {"__init__.py", "game_server.py"}
    assert loose == set(), f"modules outside the packages: {sorted(loose)}"
