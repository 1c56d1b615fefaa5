"""Dependencies point one way: vocab <- grammar <- generators <- {evaluate, validate, export} <- cli."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "blimpgen"
LAYERS = {"vocab": 1, "grammar": 2, "generators": 3, "evaluate": 4, "validate": 4, "export": 4, "cli": 5}
BASE = {"errors", "registry", "_yaml", ""}


def imports_of(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return {m for m in found if m == "blimpgen" or m.startswith("blimpgen.")}


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


def test_architecture_base_modules_import_no_parts() -> None:
    for name in ("errors.py", "registry.py", "_yaml.py"):
        assert all(m.split(".")[1] in BASE for m in imports_of(SRC / name) if "." in m), name


@pytest.mark.parametrize("code", [
    "import blimpgen.generators",
    "from blimpgen.cli import main; import sys; sys.argv=['blimpgen','--help']\ntry:\n main()\nexcept SystemExit: pass",
    "from blimpgen.cli import main; import sys; sys.argv=['blimpgen','gen','-p','npi_present_1','-n','3']\n"
    "try:\n main()\nexcept SystemExit: pass",
])
def test_architecture_generation_never_imports_torch(code: str) -> None:
    probe = code + "\nimport sys\nbad=[m for m in ('torch','transformers') if m in sys.modules]\nprint('BAD', bad)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120).stdout
    assert "BAD []" in out, out
