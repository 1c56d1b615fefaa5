"""Hugging Face datasets export: one config per paradigm, typed parquet, and a dataset card.

The Hub layout written by :func:`export_dataset` is what ``push_to_hub`` would produce, so
``datasets.load_dataset(folder, UID)`` works on it offline and it uploads unchanged::

    my_blimp/
      README.md                                    # card; its YAML header lists the configs
      data/<UID>/train-00000-of-00001.parquet      # one folder per paradigm (config)

Every config has the same typed schema (:func:`make_features`): BLiMP's field names and
types, the six prefix-method columns (null where a paradigm lacks the method), and our
provenance columns.

``slots`` is stored as a JSON string rather than a struct. Slot names differ between
paradigms, so a struct would give each config a different type: concatenating paradigms,
querying ``data/*/*.parquet`` at once, or comparing schemas across configs would break,
and a slot missing from some pairs would come back as a null-padded key, so the record
would not round-trip exactly. A JSON object keeps one schema everywhere, preserves slot
order, and is byte-for-byte the value in the JSONL file (``json.loads(row["slots"])``).
``levels`` (factor -> level, for the pairs of a paradigm with factors: ``docs/factors.md``) is a
JSON string for the same reason, and null for every other pair.

``datasets`` and ``pyarrow`` are the ``export`` extra; they are imported only when used.
"""

from __future__ import annotations

import contextlib
import fnmatch
import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from blimpgen._io import atomic_directory, data_files
from blimpgen.errors import BlimpgenError, DataError, OptionError
from blimpgen.export import card as dataset_card
from blimpgen.export._deps import require
from blimpgen.records.jsonl import read_pairs
from blimpgen.records.pair import BLIMP_FIELDS, ONE_PREFIX_FIELDS, PROVENANCE_FIELDS, TWO_PREFIX_FIELDS, MinimalPair

COLUMNS = BLIMP_FIELDS + ONE_PREFIX_FIELDS + TWO_PREFIX_FIELDS + ("levels",) + PROVENANCE_FIELDS
JSON_COLUMNS = ("slots", "levels")  # mappings whose keys differ between paradigms (see the module docstring)
BOOL_COLUMNS = ("simple_LM_method", "one_prefix_method", "two_prefix_method", "lexically_identical")
INT_COLUMNS = ("seed", "spec_version")
LIST_COLUMNS = ("kinds",)
LAYOUTS = ("hub", "disk")
SHARD_NAME = f"{dataset_card.SPLIT}-00000-of-00001.parquet"
# Config names become folder names, Hub config names and lm-eval task names.
UID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")  # whole UID (fullmatch: '$' would pass a final newline)


@dataclass(frozen=True)
class ExportResult:
    """What an export wrote: its folder and the pair count per config, in card order."""

    path: Path
    counts: dict[str, int]


@functools.cache
def make_features() -> Any:
    """The ``datasets.Features`` shared by every config (same columns, same types)."""
    datasets = require("datasets")

    def dtype(name: str) -> str:
        return "bool" if name in BOOL_COLUMNS else "int64" if name in INT_COLUMNS else "string"

    return datasets.Features(
        {
            name: datasets.Sequence(datasets.Value("string")) if name in LIST_COLUMNS else datasets.Value(dtype(name))
            for name in COLUMNS
        }
    )


def row_from_pair(pair: MinimalPair) -> dict[str, Any]:
    """One dataset row: every column present, absent values as null, ``slots`` as JSON.

    Raises:
        DataError: when ``seed`` is not an integer.
    """
    row = {name: getattr(pair, name) for name in COLUMNS}
    if row["seed"] is not None and (isinstance(row["seed"], bool) or not isinstance(row["seed"], int)):
        raise DataError(f"{pair.pair_id or pair.UID}: seed must be an integer, got {row['seed']!r}")
    row["slots"] = json.dumps(pair.slots, ensure_ascii=False, separators=(",", ":"))
    row["levels"] = None if pair.levels is None else json.dumps(pair.levels, ensure_ascii=False, separators=(",", ":"))
    row["kinds"] = list(pair.kinds)
    return row


def pair_from_row(row: dict[str, Any]) -> MinimalPair:
    """The record back from a dataset row (ours, or any BLiMP-schema row).

    Raises:
        DataError: when ``slots`` is not a JSON object.
    """
    kwargs = {name: row[name] for name in COLUMNS if name not in JSON_COLUMNS and row.get(name) is not None}
    if "kinds" in kwargs:
        kwargs["kinds"] = tuple(kwargs["kinds"])
    slots, levels = (_json_object(row, name) for name in JSON_COLUMNS)
    return MinimalPair(**kwargs, slots=slots or {}, levels=levels)


def _json_object(row: dict[str, Any], name: str) -> dict[str, Any] | None:
    """A JSON-object column of a row (a JSON string, or already a mapping), None when null.

    Raises:
        DataError: when it is not a JSON object.
    """
    value = row.get(name)
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise DataError(f"{row.get('pair_id') or row.get('UID')}: {name} is not valid JSON: {exc.msg}") from None
    if value is not None and not isinstance(value, dict):
        raise DataError(f"{row.get('pair_id') or row.get('UID')}: {name} must be a JSON object")
    return value


def collect_configs(data: Path | str) -> dict[str, list[MinimalPair]]:
    """Read BLiMP-schema JSONL (a file or a folder of ``<UID>.jsonl``) grouped by ``UID``.

    Configs are sorted by UID; pairs keep their file order.

    Raises:
        DataError: on unreadable input, an invalid UID, a duplicate ``pair_id``, or no pairs.
    """
    configs: dict[str, list[MinimalPair]] = {}
    seen: dict[str, Path] = {}
    for path in data_files(data):
        for pair in read_pairs(path):
            if not isinstance(pair.UID, str) or not UID_PATTERN.fullmatch(pair.UID):
                raise DataError(
                    f"{path}: UID {pair.UID!r} cannot name a config; use letters, "
                    "digits, '_' and '-' (e.g. npi_present_1)"
                )
            if pair.pair_id is not None:
                if pair.pair_id in seen:
                    raise DataError(
                        f"{path}: duplicate pair_id {pair.pair_id!r} (first in "
                        f"{seen[pair.pair_id]}); regenerate or remove one copy"
                    )
                seen[pair.pair_id] = path
            configs.setdefault(pair.UID, []).append(pair)
    if not configs:
        raise DataError(f"{data}: no pairs to export")
    return dict(sorted(configs.items()))


def export_dataset(
    data: Path | str,
    out: Path | str,
    *,
    layout: str = "hub",
    overwrite: bool = False,
    pretty_name: str = dataset_card.DEFAULT_PRETTY_NAME,
    license_id: str = dataset_card.DEFAULT_LICENSE,
    dataset_id: str | None = None,
) -> ExportResult:
    """Export JSONL pairs as a Hugging Face dataset folder, atomically.

    Args:
        data: a BLiMP-schema JSONL file or a folder of them.
        out: the folder to create; nothing is left there if the export fails.
        layout: ``hub`` (parquet + card, for ``load_dataset`` and the Hub) or ``disk``
            (one ``save_to_disk`` folder per config, for ``load_from_disk``).
        overwrite: replace an earlier export at ``out``.
        pretty_name: the card's title.
        license_id: the card's Hub license id.
        dataset_id: the Hub repo id, when known, for the card's loading example.

    Raises:
        DataError: on bad input (``file:line``) or a value that does not fit its column.
        OptionError: for an unknown layout, an ``out`` inside the input, or an existing ``out``.
        MissingDependencyError: without the ``export`` extra.
    """
    if layout not in LAYOUTS:
        raise OptionError(f"unknown layout {layout!r}; expected one of: {', '.join(LAYOUTS)}")
    out = Path(out)
    if _inside(Path(data), out):
        raise OptionError(f"{out}: the output folder contains the input {data}; choose another")
    configs = collect_configs(data)
    summaries = [dataset_card.summarize_config(uid, pairs) for uid, pairs in configs.items()]
    text = dataset_card.render_card(
        summaries, pretty_name=pretty_name, license_id=license_id, hub_layout=layout == "hub", dataset_id=dataset_id
    )
    with atomic_directory(out, overwrite=overwrite, is_ours=is_export_folder, owned=export_files(out)) as tmp:
        for uid, pairs in configs.items():
            if layout == "hub":
                write_parquet(pairs, tmp / "data" / uid / SHARD_NAME)
            else:
                _save_to_disk(pairs, tmp / uid)
        (tmp / "README.md").write_text(text, encoding="utf-8")
    return ExportResult(out, {uid: len(pairs) for uid, pairs in configs.items()})


def write_parquet(pairs: Iterable[MinimalPair], path: Path) -> int:
    """Write pairs as one typed parquet file (its schema carries the ``datasets`` features).

    Returns:
        The number of pairs written.

    Raises:
        DataError: when a value does not fit its column type.
        MissingDependencyError: without pyarrow.
    """
    pq = require("pyarrow.parquet")
    table = _table(pairs, path.parent.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)
    return table.num_rows


def read_export(folder: Path | str, uid: str) -> Iterator[MinimalPair]:
    """Read one config of an export (either layout) back as records, in order.

    Raises:
        OptionError: when ``uid`` is not in the export.
    """
    folder = Path(folder)
    shards = sorted((folder / "data" / uid).glob(f"{dataset_card.SPLIT}-*.parquet"))
    if shards:
        pq = require("pyarrow.parquet")
        for shard in shards:
            yield from (pair_from_row(row) for row in pq.read_table(shard).to_pylist())
        return
    if (folder / uid / "dataset_dict.json").is_file():
        datasets = require("datasets")
        yield from (pair_from_row(row) for row in datasets.load_from_disk(str(folder / uid))[dataset_card.SPLIT])
        return
    raise OptionError(f"{folder}: no config {uid!r}; this export has: {', '.join(export_configs(folder))}")


def export_configs(folder: Path | str) -> list[str]:
    """Config names of an export folder, in card order (disk layout: its ``save_to_disk`` folders)."""
    folder = Path(folder)
    if "configs" in dataset_card.read_card_header(folder):
        return dataset_card.card_config_names(folder)
    return sorted(p.name for p in folder.iterdir() if (p / "dataset_dict.json").is_file())


def export_files(folder: Path) -> Callable[[str], bool]:
    """Which paths of an earlier export at ``folder`` ``export hf`` wrote (``--overwrite`` keeps the rest).

    The card, the parquet shards of the configs it lists, and (disk layout) the configs' folders.
    """
    configs: set[str] = set()
    disk: set[str] = set()
    if folder.is_dir() and is_export_folder(folder):
        with contextlib.suppress(BlimpgenError):
            configs = set(dataset_card.card_config_names(folder))
        disk = {p.name for p in folder.iterdir() if (p / "dataset_dict.json").is_file()}

    def owned(relative: str) -> bool:
        parts = relative.split("/")
        if relative == "README.md" or parts[0] in disk:
            return True
        return (
            len(parts) == 3
            and parts[0] == "data"
            and parts[1] in configs
            and fnmatch.fnmatchcase(parts[2], f"{dataset_card.SPLIT}-*.parquet")
        )

    return owned


def is_export_folder(path: Path) -> bool:
    """Whether ``path`` holds an earlier ``blimpgen export hf`` (its card carries our marker)."""
    card_path = path / "README.md"
    try:
        return dataset_card.CARD_MARKER in card_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def _save_to_disk(pairs: list[MinimalPair], path: Path) -> None:
    datasets = require("datasets")
    dataset = datasets.Dataset(_table(pairs, path.name))
    datasets.DatasetDict({dataset_card.SPLIT: dataset}).save_to_disk(str(path))


def _table(pairs: Iterable[MinimalPair], uid: str) -> Any:
    """A pyarrow table with the shared schema (the features ride in its metadata)."""
    pa = require("pyarrow")
    rows = [row_from_pair(pair) for pair in pairs]
    try:
        return pa.Table.from_pylist(rows, schema=make_features().arrow_schema)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        raise DataError(f"{uid}: a value does not fit its column type: {exc}") from None


def _inside(child: Path, parent: Path) -> bool:
    child, parent = child.resolve(), parent.resolve()
    return child == parent or parent in child.parents
