"""Top-up batches: repost the lists whose pairs ended below the requested judgments.

Judgments are lost to rejections, failed attention checks, too-fast or non-native workers and
the like. :func:`write_topup` reads a batch and its results (as ``ingest`` does), and for every
list whose pairs are short writes new replica HITs of that list, with enough assignments to
cover the shortfall, into a new folder in the batch's own format:

* ``key.csv`` holds the earlier HITs *and* the new ones, so ``ingest --batch TOPUP --results
  first.csv topup.csv`` scores every round together (and a second top-up can follow from it);
* ``batch.csv``, ``preview/`` and ``questions/`` hold only the new HITs, and the posting plan in
  ``hit_properties.json`` names only them, with their assignments per HIT;
* each list's exclusion qualification starts with every worker who already did the list, and
  every worker excluded anywhere in the batch (honeypot, failed check, non-native, rejected, too
  fast, incomplete), so a top-up only goes to new, not yet failed workers.

The assignments asked for are the shortfall divided by the share of workers who were *not*
excluded in the rounds so far, rounded up, so one round is normally enough.
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from blimpgen._io import atomic_directory, read_text
from blimpgen.errors import OptionError
from blimpgen.validate.batch import (
    BATCH_FILE,
    KEY_COLUMNS,
    KEY_FILE,
    LAYOUT_FILE,
    PAGE_FILE,
    PROPERTIES_FILE,
    is_batch_file,
    is_batch_folder,
    key_row,
    load_batch,
    posting_plan,
    write_csv,
    write_text,
)
from blimpgen.validate.design import MTURK_FEE_FREE_MAX_ASSIGNMENTS, Hit, opaque_item_id
from blimpgen.validate.ingest import IngestOptions, ingest
from blimpgen.validate.page import fill, hit_values, placeholders, question_xml, render_page
from blimpgen.validate.properties import estimate_cost

# Exclusions that say nothing against the worker (the row was a copy, or a second replica).
NEUTRAL_REASONS = frozenset({"duplicate_assignment", "duplicate_worker_on_list"})
# Never plan as if more than half the new workers will fail: that would ask for too much.
MAX_LOSS = 0.5


@dataclass(frozen=True)
class TopUp:
    """What :func:`write_topup` wrote: the new HITs, the shortfall per list, the cost."""

    folder: Path
    hits: tuple[Hit, ...]
    shortfall: dict[int, int]
    assignments: dict[str, int]
    cost: dict[str, Any]


def write_topup(
    batch_folder: Path | str,
    results: Sequence[Path | str],
    out: Path | str,
    options: IngestOptions | None = None,
    *,
    force: bool = False,
) -> TopUp:
    """Write a top-up batch for the pairs of ``batch_folder`` below the requested judgments.

    Args:
        batch_folder: the batch (or an earlier top-up) the results belong to.
        results: every results CSV so far.
        out: the new batch folder.
        options: the ingest thresholds that decide which judgments count.
        force: replace an earlier batch in ``out``.

    Raises:
        OptionError: ``out`` is the batch itself, holds a batch without ``force``, or nothing is short.
        DataError: a damaged batch or results file (as ``ingest``).
    """
    out = Path(out)
    batch = load_batch(batch_folder)
    if out.resolve() == batch.folder.resolve() or any(Path(p).resolve().parent == out.resolve() for p in results):
        raise OptionError(f"{out}: write the top-up to a new folder, not over the batch or its results")
    if (out / KEY_FILE).exists() and not force:
        raise OptionError(f"{out}: already holds a batch ({KEY_FILE}); pass --force to replace it")
    if out.is_dir() and any(out.iterdir()) and not is_batch_folder(out):
        raise OptionError(f"{out}: folder is not empty and holds no batch; choose a new or empty folder")
    analysis = ingest(batch.folder, results, options or IngestOptions())
    counts = {(pair.uid, pair.pair_id): pair.n_judgments for pair in analysis.pairs}
    screened = [s for s in analysis.screened if "duplicate_assignment" not in s.reasons]
    blocked = {s.row.worker_id for s in screened if set(s.reasons_at(analysis.threshold)) - NEUTRAL_REASONS}
    workers = {s.row.worker_id for s in screened}
    loss = min(MAX_LOSS, len(blocked) / len(workers)) if workers else 0.0
    by_list: dict[int, list[Hit]] = {}
    for hit in batch.hits.values():
        by_list.setdefault(hit.list_index, []).append(hit)

    secret = secrets.token_bytes(32)
    new_hits: list[Hit] = []
    shortfall: dict[int, int] = {}
    assignments: dict[str, int] = {}
    exclude: dict[int, set[str]] = {}
    for index, hits in sorted(by_list.items()):
        hits.sort(key=lambda hit: hit.replica)
        real = {(item.uid, item.pair_id) for hit in hits for item in hit.items if item.kind == "real"}
        if not real:
            continue
        short = batch.judgments_requested - min(counts.get(key, 0) for key in real)
        if short <= 0:
            continue
        shortfall[index] = short
        needed = math.ceil(short / (1 - loss))
        replicas = math.ceil(needed / MTURK_FEE_FREE_MAX_ASSIGNMENTS)
        codes = {hit.code for hit in hits}
        exclude[index] = blocked | {s.row.worker_id for s in screened if s.row.hit_code in codes}
        for number in range(replicas):
            model = hits[number % len(hits)]
            replica = hits[-1].replica + 1 + number
            code = f"{batch.tag}-{index:03d}-{replica}"
            items = tuple(replace(item, item_id=opaque_item_id(secret, code, item)) for item in model.items)
            new_hits.append(Hit(code=code, list_index=index, replica=replica, items=items))
            assignments[code] = math.ceil(needed / replicas)
    if not new_hits:
        raise OptionError(f"every pair already has {batch.judgments_requested} judgments: nothing to repost")

    properties = json.loads(json.dumps(batch.properties))
    reward = Decimal(properties["Reward"])
    costs = [estimate_cost(reward, 1, assignments[hit.code]) for hit in new_hits]
    cost = {
        **costs[0],
        "assignments": sum(c["assignments"] for c in costs),
        **{name: str(sum(Decimal(c[name]) for c in costs)) for name in ("rewards", "fees", "total")},
    }
    properties["MaxAssignments"] = max(assignments.values())
    properties["blimpgen"].update(
        {
            "topup_of": str(batch.folder),
            "hits": len(new_hits),
            "cost": cost,
            "assignments": assignments,
            "shortfall": {str(index): short for index, short in shortfall.items()},
            "posting": posting_plan(batch.tag, new_hits, {index: sorted(found) for index, found in exclude.items()}),
        }
    )

    layout = read_text(batch.folder / LAYOUT_FILE)
    page_path = batch.folder / PAGE_FILE
    standalone = read_text(page_path) if page_path.is_file() else render_page(batch.slots, standalone=True)
    header = placeholders(layout)
    rows = [hit_values(hit) for hit in new_hits]
    with atomic_directory(out, overwrite=True, is_ours=lambda folder: True, owned=is_batch_file) as tmp:
        write_text(tmp / LAYOUT_FILE, layout)
        write_text(tmp / PAGE_FILE, standalone)
        write_csv(tmp / BATCH_FILE, header, ([row[name] for name in header] for row in rows))
        everything = [*batch.hits.values(), *new_hits]
        write_csv(tmp / KEY_FILE, KEY_COLUMNS, (key_row(hit, item) for hit in everything for item in hit.items))
        write_text(tmp / PROPERTIES_FILE, json.dumps(properties, indent=2) + "\n")
        for hit, row in zip(new_hits, rows, strict=True):
            page = fill(standalone, row)
            write_text(tmp / "preview" / f"{hit.code}.html", page)
            write_text(tmp / "questions" / f"{hit.code}.xml", question_xml(page))
    return TopUp(folder=out, hits=tuple(new_hits), shortfall=shortfall, assignments=assignments, cost=cost)
