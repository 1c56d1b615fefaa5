"""Record the fingerprint of blimpgen's generated output under the current version.

    python tools/output_fingerprint.py          # check: exit 1 when the output changed
    python tools/output_fingerprint.py --write  # record it for __version__

The fingerprint is a SHA-256 over 20 pairs of every shipped paradigm and 20 items of every
shipped probe suite (seed 0), with ``blimpgen_version`` left out of each record. It is kept per
version in ``tests/fixtures/output_fingerprints.json``; ``--write`` refuses to record a new
fingerprint under a version that already has another one: changed output needs a new version
(``src/blimpgen/__init__.py``) and a CHANGELOG entry. ``tests/test_version.py`` runs the check.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from blimpgen import __version__
from blimpgen.generators.catalog import Catalog
from blimpgen.generators.generate import generate_records
from blimpgen.records import dumps_record

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "output_fingerprints.json"
PER_SPEC = 20


def fingerprint(catalog: Catalog | None = None) -> str:
    """SHA-256 of every shipped spec's first records (seed 0), version field left out."""
    catalog = catalog or Catalog()
    digest = hashlib.sha256()
    for source in catalog.build():
        for record, _ in generate_records(source, PER_SPEC, 0):
            data = json.loads(dumps_record(record))
            data.pop("blimpgen_version", None)
            digest.update(json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n")
    return digest.hexdigest()


def recorded() -> dict[str, str]:
    """Version -> fingerprint, as recorded."""
    return json.loads(FIXTURE.read_text(encoding="utf-8")) if FIXTURE.exists() else {}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="record the fingerprint for the current version")
    args = parser.parse_args(argv)
    current, known = fingerprint(), recorded()
    if known.get(__version__) == current:
        print(f"{__version__}: output unchanged ({current[:12]})")
        return 0
    if __version__ in known:
        print(
            f"generated output changed since {__version__} was recorded: raise __version__ in "
            "src/blimpgen/__init__.py, add a CHANGELOG.md entry, then run this with --write",
            file=sys.stderr,
        )
        return 1
    if not args.write:
        print(f"{__version__} has no recorded fingerprint: run this with --write", file=sys.stderr)
        return 1
    known[__version__] = current
    FIXTURE.write_text(json.dumps(known, indent=1) + "\n", encoding="utf-8")
    print(f"{__version__}: recorded {current[:12]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
