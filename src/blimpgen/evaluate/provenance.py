"""What ``results.json`` records about how a result was made (its ``provenance`` object).

lm-evaluation-harness records library versions, the model's revision, the environment and task
hashes; a result here records::

    {"libraries": {"python": "3.12.3", "blimpgen": "0.4.0", "torch": "2.5.1", ...},
     "model": {"id": "gpt2", "revision": "607a30d7...", "weights_sha256": null, ...},
     "device": "cpu", "dtype": "float32", "date": "2025-01-01T12:00:00+00:00",
     "command_line": ["blimpgen", "eval", ...],
     "data": {"<UID or suite>": {"seed": 0, "lexicon_hash": "...", "spec_hash": "...",
                                 "spec_version": 1, "blimpgen_version": "0.4.0"}}}

The model part comes from the scorer (:meth:`~blimpgen.evaluate.scoring.base.Scorer.provenance`):
a model from the Hugging Face cache is named by its revision (the commit its config was read
from); a model from a local folder by the SHA-256 of its weight files
(:func:`weights_digest`). The data part is read from the records' own provenance, per paradigm
(probe suite): a field with one value in a paradigm is that value; with several (data of
several generation runs) it is their sorted list; absent (BLiMP's own files) it is ``null``.
"""

from __future__ import annotations

import hashlib
import platform
import sys
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from blimpgen import __version__

# Distributions whose versions a result records, when installed (they are looked up, not imported).
LIBRARIES = ("torch", "transformers", "tokenizers", "numpy", "accelerate", "nltk")
# Per-record provenance fields a result records per paradigm.
DATA_FIELDS = ("seed", "lexicon_hash", "spec_hash", "spec_version", "blimpgen_version")
# Files whose bytes are a model's weights (what ``save_pretrained`` and other tools write).
WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth", ".ckpt", ".h5", ".msgpack", ".gguf")


def library_versions() -> dict[str, str]:
    """Python's, blimpgen's and each installed library's version (:data:`LIBRARIES`)."""
    versions = {"python": platform.python_version(), "blimpgen": __version__}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def weights_digest(folder: str | Path) -> dict[str, Any] | None:
    """The SHA-256 of every weight file in a model folder, and one over all of them.

    Each file is hashed in 1 MiB blocks, so memory stays flat; a model of tens of gigabytes
    is read once more in full (at disk speed, about a minute per 10 GB), which is the price
    of naming a local model by its bytes.

    Returns:
        ``{"weights_sha256": combined, "weight_files": {name: sha256}}``; None when the folder
        holds no weight file.
    """
    folder = Path(folder).expanduser()
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in WEIGHT_SUFFIXES)
    if not files:
        return None
    digests = {str(p.relative_to(folder)): file_sha256(p) for p in files}
    combined = hashlib.sha256("".join(f"{name}\0{digest}\n" for name, digest in digests.items()).encode())
    return {"weights_sha256": combined.hexdigest(), "weight_files": digests}


def file_sha256(path: str | Path) -> str:
    """The SHA-256 of a file's bytes, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def data_provenance(records: Iterable[Any], group: Callable[[Any], str]) -> dict[str, dict[str, Any]]:
    """Per paradigm (``group`` of a record), each of :data:`DATA_FIELDS`: its one value, the sorted
    list of its distinct values when the records differ, or None when no record has it."""
    seen: dict[str, dict[str, set[Any]]] = {}
    for record in records:
        fields = seen.setdefault(group(record), {name: set() for name in DATA_FIELDS})
        for name in DATA_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                fields[name].add(value)
    return {
        name: {field: _one_or_all(values) for field, values in fields.items()} for name, fields in sorted(seen.items())
    }


def _one_or_all(values: set[Any]) -> Any:
    if not values:
        return None
    return next(iter(values)) if len(values) == 1 else sorted(values, key=str)


def run_provenance(scorer_provenance: dict[str, Any], data: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The ``provenance`` object of a result.

    Args:
        scorer_provenance: what the scorer says of its model (``model``, ``device``, ``dtype``).
        data: the data's provenance per paradigm (:func:`data_provenance`).
    """
    return {
        "libraries": library_versions(),
        "model": scorer_provenance.get("model"),
        "device": scorer_provenance.get("device"),
        "dtype": scorer_provenance.get("dtype"),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command_line": list(sys.argv),
        "data": data,
    }
