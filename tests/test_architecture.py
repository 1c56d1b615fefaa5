"""The layers of docs/architecture.md, enforced.

Dependencies point one way, down this list (parts on one floor do not import each other):
base (errors, _yaml, _io, registry) <- {records, vocab} <- grammar <- generators
<- {authoring, evaluate, validate, export} <- cli. No import circle anywhere, no import of
another module's private name, no private module imported from outside its part, and
generation never imports torch.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "blimpgen"
LAYERS = {
    "records": 1,
    "vocab": 1,
    "grammar": 2,
    "generators": 3,
    "authoring": 4,
    "evaluate": 4,
    "validate": 4,
    "export": 4,
    "cli": 5,
    "api": 5,
}
BASE = {"errors", "registry", "_yaml", "_io", ""}
# Aliases kept for a test file another change owns (see their docstrings); src must not use them.


def module_name(path: Path) -> str:
    parts = ("blimpgen",) + path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def import_nodes(path: Path) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, lazy and TYPE_CHECKING ones included."""
    return [
        node
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module)
    ]


def imports_of(path: Path) -> set[str]:
    found = set()
    for node in import_nodes(path):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        else:
            found.add(node.module)
    return {m for m in found if m == "blimpgen" or m.startswith("blimpgen.")}


def module_edges(path: Path) -> set[str]:
    """The blimpgen modules a module imports (``from pkg import submodule`` counts as the submodule)."""
    found = set()
    for node in import_nodes(path):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in MODULES}
        elif node.module in MODULES or node.module.startswith("blimpgen"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in MODULES else node.module)
    return {m for m in found if m in MODULES}


@pytest.mark.parametrize("part", sorted(LAYERS))
def test_architecture_no_upward_or_sibling_imports(part: str) -> None:
    bad = []
    for path in sorted((SRC / part).rglob("*.py")):
        for module in imports_of(path):
            target = module.split(".")[1] if "." in module else ""
            if target in BASE or target == part:
                continue
            if LAYERS.get(target, 0) >= LAYERS[part]:
                bad.append(f"{path.relative_to(SRC)} imports {module}")
    assert bad == []


def test_architecture_every_part_has_a_floor() -> None:
    parts = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    modules = {p.stem for p in SRC.glob("*.py")} - {"__init__", "__main__"}
    assert parts == set(LAYERS) and modules == BASE - {""}, (parts, modules)


def test_architecture_base_modules_import_no_parts() -> None:
    for name in ("errors.py", "registry.py", "_yaml.py", "_io.py"):
        assert all(m.split(".")[1] in BASE for m in imports_of(SRC / name) if "." in m), name


def test_architecture_no_import_circles() -> None:
    graph = {name: module_edges(path) - {name} for name, path in MODULES.items()}
    circles, state = [], {}

    def visit(node: str, path: list[str]) -> None:  # depth-first; an edge back to an open node closes a circle
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                circles.append(" -> ".join(path[path.index(nxt) :] + [nxt]))
            elif nxt not in state:
                visit(nxt, path)
        path.pop()
        state[node] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    assert circles == []


def test_architecture_no_private_names_across_modules() -> None:
    bad = []
    for name, path in MODULES.items():
        part = name.split(".")[1] if "." in name else ""
        for node in import_nodes(path):
            targets = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            if isinstance(node, ast.ImportFrom):
                bad += [
                    f"{name} imports {node.module}.{a.name}"
                    for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")
                ]
            for target in targets:
                pieces = target.split(".")
                if pieces[0] != "blimpgen" or len(pieces) < 3:
                    continue  # blimpgen._yaml, blimpgen._io: the base, shared by every part
                if any(p.startswith("_") and not p.startswith("__") for p in pieces[2:]) and pieces[1] != part:
                    bad.append(f"{name} imports {target}, private to blimpgen.{pieces[1]}")
    assert bad == []


def test_architecture_errors_raised_are_specific() -> None:
    """Callers catch what they can act on: ``raise BlimpgenError(...)`` of the root class is never written."""
    bad = []
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and isinstance(node.exc.func, ast.Name)
                and node.exc.func.id == "BlimpgenError"
            ):
                bad.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert bad == []


# Strings that name a record type, a result type or a model family. `records/types.py` is where raw
# data says which record type it holds; evaluation dispatches on classes (evaluate.tasks.TASKS)
# and on scorer capabilities (Scorer.place), never by comparing these.
TYPE_STRINGS = {
    "pairs",
    "pair",
    "items",
    "item",
    "probes",
    "probe",
    "kind",
    "item_type",
    "multiple_choice",
    "cloze_contrast",
    "hf-",
    "hf-causal",
    "hf-masked",
}


def test_architecture_evaluation_tells_record_types_apart_by_class() -> None:
    bad = []
    paths = [*(SRC / "evaluate").rglob("*.py"), SRC / "cli" / "evaluate.py", SRC / "cli" / "probe.py"]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            strings = []
            if isinstance(node, ast.Compare):
                strings = [n.value for n in [node.left, *node.comparators] if isinstance(n, ast.Constant)]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("startswith", "endswith", "split", "rsplit", "partition", "rpartition")
            ):
                strings = [n.value for n in node.args if isinstance(n, ast.Constant)]  # name parsing
                strings += [".v"] if ".v" in strings else []
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
                strings = [n.value for n in node.args[1:2] if isinstance(n, ast.Constant)]
            found = [s for s in strings if isinstance(s, str) and (s in TYPE_STRINGS or s == ".v")]
            bad += [f"{path.relative_to(SRC)}:{node.lineno}: {found[0]!r}"] if found else []
    assert bad == []


@pytest.mark.parametrize(
    "code",
    [
        "import blimpgen.generators",
        "from blimpgen.cli import main; import sys; sys.argv=['blimpgen','--help']\n"
        "try:\n main()\nexcept SystemExit: pass",
        "from blimpgen.cli import main; import sys; sys.argv=['blimpgen','gen','-p','npi_present_1','-n','3']\n"
        "try:\n main()\nexcept SystemExit: pass",
    ],
)
def test_architecture_generation_never_imports_torch(code: str) -> None:
    probe = code + "\nimport sys\nbad=[m for m in ('torch','transformers') if m in sys.modules]\nprint('BAD', bad)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120).stdout
    assert "BAD []" in out, out
