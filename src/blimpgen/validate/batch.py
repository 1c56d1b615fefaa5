"""Writing a validation batch to a folder, and reading it back for ingest and simulation.

``write_batch`` produces the files a requester uploads or posts as they are:

* ``layout.html``: the HIT page for MTurk's requester site (``${…}`` placeholders).
* ``batch.csv``: one row per HIT, headers exactly the layout's placeholders (RFC 4180, CRLF).
* ``key.csv``: the private answer key, one row per item (never upload it).
* ``hit_properties.json``: title, reward, assignments, durations, qualifications (MTurk API
  names), the design, the cost estimate and what the page says (contact, time, pay, consent).
* ``preview/<hit>.html`` and, on request, ``questions/<hit>.xml`` (HTMLQuestion documents).

The folder is written as a whole (:func:`blimpgen._io.atomic_directory`): ``--force`` over an
earlier batch replaces all of its files at once or none (never a new ``batch.csv`` beside an old
``key.csv``), and keeps every file in the folder that ``validate batch`` did not write (results
files, ingest reports, notes). Every CSV cell a spreadsheet would run as a formula is neutralised.
"""

from __future__ import annotations

import csv
import fnmatch
import io
import json
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from blimpgen import __version__
from blimpgen._io import atomic_directory, csv_text, csv_value, data_files, read_text
from blimpgen.errors import DataError, OptionError, SpecError
from blimpgen.records.jsonl import read_pairs
from blimpgen.validate.design import KINDS, BatchOptions, Design, Hit, Item, design_batch, opaque_item_id
from blimpgen.validate.page import (
    DEFAULT_TITLE,
    PageText,
    fill,
    hit_values,
    placeholders,
    question_xml,
    render_page,
)
from blimpgen.validate.properties import HitProperties, estimate_cost

KEY_COLUMNS = (
    "hit_code",
    "list",
    "replica",
    "slot",
    "kind",
    "UID",
    "linguistics_term",
    "field",
    "pair_id",
    "good_position",
    "sentence_good",
    "sentence_bad",
    "source",
    "item_id",
)
# Keys written before item ids were opaque (the page then showed the self-decoding code).
OLD_KEY_COLUMNS = KEY_COLUMNS[:-1]
LAYOUT_FILE, BATCH_FILE, KEY_FILE, PROPERTIES_FILE = "layout.html", "batch.csv", "key.csv", "hit_properties.json"
PAGE_FILE = "page.html"  # the standalone page with placeholders: what a top-up fills in for its new HITs
POSTED_FILE = "posted.csv"
# What `validate batch` (and `--post`) write in a batch folder; --force replaces these and keeps the rest.
BATCH_FILES = (
    LAYOUT_FILE,
    PAGE_FILE,
    BATCH_FILE,
    KEY_FILE,
    PROPERTIES_FILE,
    POSTED_FILE,
    "preview/*.html",
    "questions/*.xml",
)


@dataclass(frozen=True)
class WrittenBatch:
    """What :func:`write_batch` wrote: the folder, the design, the properties and the cost."""

    folder: Path
    design: Design
    properties: HitProperties
    cost: dict[str, Any]


@dataclass(frozen=True)
class PostingList:
    """One list as it is posted: its replica HITs one after another, never two open at once.

    Each list has its own *exclusion qualification* ``qualification``: every HIT of the list
    requires workers not to hold it (``DoesNotExist``), the posting script grants it to each
    worker who submits an assignment on the list (and, for a top-up, to ``exclude_workers`` at
    once), and replica r+1 goes up only when replica r is complete, so no worker can take two
    replicas of a list. Different lists run in parallel.
    """

    list_index: int
    qualification: str
    hits: tuple[str, ...]
    exclude_workers: tuple[str, ...]


def exclusion_name(tag: str, list_index: int) -> str:
    """The name of a list's exclusion qualification (unique per batch and list)."""
    return f"blimpgen {tag} list {list_index:03d} done"


@dataclass(frozen=True)
class LoadedBatch:
    """A batch folder read back: its HITs (items in slot order) and its properties."""

    folder: Path
    tag: str
    hits: dict[str, Hit]
    assignments_per_hit: int
    judgments_requested: int
    properties: dict[str, Any]

    @property
    def slots(self) -> int:
        """Items per HIT, attention check included."""
        return len(next(iter(self.hits.values())).items)

    def posting_lists(self) -> list[PostingList]:
        """The lists to post, each with its replica HITs in posting order (see :class:`PostingList`)."""
        plan = self.properties.get("blimpgen", {}).get("posting")
        if plan is None:  # a batch written before posting plans: every HIT, by list
            by_list: dict[int, list[str]] = {}
            for code, hit in sorted(self.hits.items(), key=lambda entry: (entry[1].list_index, entry[1].replica)):
                by_list.setdefault(hit.list_index, []).append(code)
            return [
                PostingList(index, exclusion_name(self.tag, index), tuple(codes), ())
                for index, codes in by_list.items()
            ]
        try:
            lists = [
                PostingList(
                    int(entry["list"]),
                    str(entry["qualification"]),
                    tuple(entry["hits"]),
                    tuple(entry.get("exclude_workers", ())),
                )
                for entry in plan["lists"]
            ]
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(
                f"{self.folder / PROPERTIES_FILE}: damaged posting plan ({exc}); rewrite the batch"
            ) from None
        unknown = [code for entry in lists for code in entry.hits if code not in self.hits]
        if unknown:
            raise DataError(f"{self.folder / PROPERTIES_FILE}: posting plan names HIT {unknown[0]!r} not in {KEY_FILE}")
        return lists

    def assignments(self, code: str) -> int:
        """Assignments HIT ``code`` is posted with (a top-up sets them per HIT)."""
        per_hit = self.properties.get("blimpgen", {}).get("assignments", {})
        return int(per_hit.get(code, self.assignments_per_hit))

    def batch_rows(self) -> list[dict[str, str]]:
        """The ``batch.csv`` rows, rebuilt from the key (identical to the file's)."""
        return [hit_values(hit) for hit in self.hits.values()]


def write_batch(
    data: Path | str,
    out: Path | str,
    options: BatchOptions,
    properties: HitProperties | None = None,
    *,
    questions: bool = False,
    force: bool = False,
    title: str = DEFAULT_TITLE,
    page: PageText | None = None,
) -> WrittenBatch:
    """Sample pairs from ``data`` and write an MTurk-ready batch folder.

    Args:
        data: a BLiMP-schema JSONL file or a folder of them.
        out: the batch folder to create.
        options: sample sizes, judgments per pair and seed.
        properties: title, reward and qualifications; defaults pay $15/hour.
        questions: also write ``questions/<hit>.xml`` HTMLQuestion documents (for the API).
        force: replace an existing batch in ``out`` (its answer key is lost).
        title: the heading on the HIT page.
        page: instructions, consent and requester contact for the page; the estimated time and
            the reward shown beside them come from ``properties``.

    Raises:
        DataError: bad data.
        OptionError: an impossible design, or an existing batch without ``force``.
    """
    out = Path(out)
    if (out / KEY_FILE).exists() and not force:
        raise OptionError(
            f"{out}: already holds a batch ({KEY_FILE}); pass --force to replace it "
            "(results of HITs already posted from it could no longer be scored)"
        )
    if out.is_dir() and any(out.iterdir()) and not is_batch_folder(out):
        raise OptionError(f"{out}: folder is not empty and holds no batch; choose a new or empty folder")
    pairs = [pair for path in data_files(data) for pair in read_pairs(path)]
    design = with_opaque_ids(design_batch(pairs, options), secrets.token_bytes(32))
    properties = (properties or HitProperties()).with_reward(design.slots)
    text = replace(page or PageText(), seconds=properties.seconds(design.slots), reward=properties.reward)
    layout = render_page(design.slots, standalone=False, title=title, text=text)
    standalone = render_page(design.slots, standalone=True, title=title, text=text)
    header = placeholders(layout)
    rows = [hit_values(hit) for hit in design.hits]
    if set(header) != set(rows[0]):  # the template and hit_values must agree, always
        raise AssertionError(f"layout placeholders {header} do not match batch columns {sorted(rows[0])}")
    if properties.reward is None:  # with_reward fills it in; the check narrows the type
        raise OptionError("the HIT properties have no reward: give reward or hourly_wage")
    cost = estimate_cost(properties.reward, len(design.hits), options.assignments_per_hit)

    with atomic_directory(out, overwrite=True, is_ours=lambda folder: True, owned=is_batch_file) as tmp:
        write_text(tmp / LAYOUT_FILE, layout)
        write_text(tmp / PAGE_FILE, standalone)
        write_csv(tmp / BATCH_FILE, header, ([row[name] for name in header] for row in rows))
        write_csv(tmp / KEY_FILE, KEY_COLUMNS, (key_row(hit, item) for hit in design.hits for item in hit.items))
        write_text(tmp / PROPERTIES_FILE, json.dumps(_properties_json(design, properties, cost, text), indent=2) + "\n")
        for hit, row in zip(design.hits, rows, strict=True):
            filled = fill(standalone, row)
            write_text(tmp / "preview" / f"{hit.code}.html", filled)
            if questions:
                write_text(tmp / "questions" / f"{hit.code}.xml", question_xml(filled))
    return WrittenBatch(folder=out, design=design, properties=properties, cost=cost)


def with_opaque_ids(design: Design, secret: bytes) -> Design:
    """``design`` with every item's page id an HMAC under ``secret`` (a fresh one per batch, kept nowhere).

    The ids go into ``key.csv`` beside what they stand for, so the secret is not needed again.
    """
    hits = tuple(
        replace(hit, items=tuple(replace(item, item_id=opaque_item_id(secret, hit.code, item)) for item in hit.items))
        for hit in design.hits
    )
    return replace(design, hits=hits)


def is_batch_folder(folder: Path) -> bool:
    """Whether a non-empty folder holds an earlier batch (a new batch goes only into such a folder, or an empty one)."""
    return (folder / KEY_FILE).is_file()


def is_batch_file(relative: str) -> bool:
    """Whether a path inside a batch folder (``preview/x.html``) is one ``validate batch`` writes."""
    return any(fnmatch.fnmatchcase(relative, pattern) for pattern in BATCH_FILES)


def batch_files(folder: Path | str) -> list[Path]:
    """The files of the batch in ``folder`` (what a command reading the batch must not overwrite)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return [path for path in folder.rglob("*") if is_batch_file(path.relative_to(folder).as_posix())]


def load_batch(folder: Path | str) -> LoadedBatch:
    """Read a batch folder written by :func:`write_batch`.

    Raises:
        DataError: a missing or damaged file; ``SpecError`` with ``file:line`` for a damaged key.
    """
    folder = Path(folder)
    for name in (KEY_FILE, PROPERTIES_FILE):
        if not (folder / name).is_file():
            raise DataError(f"{folder}: not a batch folder (no {name}); make one with `blimpgen validate batch`")
    try:
        properties = json.loads(read_text(folder / PROPERTIES_FILE, error=DataError))
        design = properties["blimpgen"]
        tag, assignments, judgments = design["batch"], int(properties["MaxAssignments"]), int(design["judgments"])
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise DataError(f"{folder / PROPERTIES_FILE}: damaged ({exc}); rewrite the batch") from None
    hits = _read_key(folder / KEY_FILE)
    return LoadedBatch(
        folder=folder,
        tag=tag,
        hits=hits,
        assignments_per_hit=assignments,
        judgments_requested=judgments,
        properties=properties,
    )


def key_row(hit: Hit, item: Item) -> list[str]:
    return [
        hit.code,
        str(hit.list_index),
        str(hit.replica),
        str(item.slot),
        item.kind,
        item.uid,
        item.linguistics_term,
        item.field,
        item.pair_id,
        str(item.good_position),
        item.sentence_good,
        item.sentence_bad,
        item.source,
        item.item_id,
    ]


def _read_key(path: Path) -> dict[str, Hit]:
    items: dict[str, list[Item]] = {}
    places: dict[str, tuple[int, int]] = {}
    reader = csv.reader(io.StringIO(read_text(path, error=SpecError, encoding="utf-8-sig"), newline=""))
    try:
        header = next(reader, [])
        columns = tuple(header)
        if columns not in (KEY_COLUMNS, OLD_KEY_COLUMNS):
            raise SpecError(f"expected columns {', '.join(KEY_COLUMNS)}", str(path), 1)
        for cells in reader:
            row = [csv_value(cell) for cell in cells]
            line = reader.line_num
            if len(row) != len(columns):
                raise SpecError(f"has {len(row)} fields, expected {len(columns)}", str(path), line)
            record = dict(zip(columns, row, strict=True))
            try:
                slot, list_index, replica = int(record["slot"]), int(record["list"]), int(record["replica"])
                good = int(record["good_position"])
            except ValueError:
                raise SpecError("slot, list, replica and good_position must be integers", str(path), line) from None
            if record["kind"] not in KINDS or good not in (1, 2):
                raise SpecError(f"kind must be one of {', '.join(KINDS)} and good_position 1 or 2", str(path), line)
            code = record["hit_code"]
            places.setdefault(code, (list_index, replica))
            items.setdefault(code, []).append(
                Item(
                    slot,
                    record["kind"],
                    record["UID"],
                    record["pair_id"],
                    record["sentence_good"],
                    record["sentence_bad"],
                    good,
                    record["linguistics_term"],
                    record["field"],
                    record["source"],
                    record.get("item_id", ""),
                )
            )
    except csv.Error as exc:
        raise SpecError(f"damaged: {exc}", str(path), reader.line_num) from None
    if not items:
        raise SpecError("the answer key is empty", str(path))
    hits = {}
    sizes = {len(members) for members in items.values()}
    for code, members in items.items():
        members.sort(key=lambda item: item.slot)
        if [item.slot for item in members] != list(range(1, len(members) + 1)) or len(sizes) != 1:
            raise SpecError(f"HIT {code}: slots must run 1..n, the same n for every HIT", str(path))
        hits[code] = Hit(code, *places[code], items=tuple(members))
    return hits


def _properties_json(design: Design, properties: HitProperties, cost: dict[str, Any], page: PageText) -> dict[str, Any]:
    options = design.options
    return {
        "Title": properties.title,
        "Description": properties.description,
        "Keywords": properties.keywords,
        "Reward": str(properties.reward),
        "MaxAssignments": options.assignments_per_hit,
        "AssignmentDurationInSeconds": properties.assignment_duration_seconds,
        "LifetimeInSeconds": properties.lifetime_seconds,
        "AutoApprovalDelayInSeconds": properties.auto_approval_delay_seconds,
        "QualificationRequirements": properties.qualification_requirements(),
        "blimpgen": {
            "version": __version__,
            "batch": design.tag,
            "seed": options.seed,
            "paradigms": len(design.uids),
            "pairs_per_paradigm": options.pairs_per_paradigm,
            "judgments": options.judgments,
            "judgments_per_pair": design.judgments_per_pair,
            "items_per_hit": options.items_per_hit,
            "slots_per_hit": design.slots,
            "lists": design.n_lists,
            "replicas_per_list": options.replicas,
            "hits": len(design.hits),
            "hourly_wage": str(properties.hourly_wage),
            "cost": cost,
            "page": page.to_json(),
            "posting": posting_plan(design.tag, design.hits),
        },
    }


def posting_plan(tag: str, hits: Iterable[Hit], exclude: dict[int, Sequence[str]] | None = None) -> dict[str, Any]:
    """The ``posting`` section of ``hit_properties.json``: per list, its qualification and HITs in order."""
    by_list: dict[int, list[Hit]] = {}
    for hit in hits:
        by_list.setdefault(hit.list_index, []).append(hit)
    return {
        "replicas": "one after another per list; lists in parallel",
        "exclusion": "DoesNotExist on a per-list qualification granted to each worker who submits on the list",
        "lists": [
            {
                "list": index,
                "qualification": exclusion_name(tag, index),
                "hits": [hit.code for hit in sorted(members, key=lambda hit: hit.replica)],
                "exclude_workers": sorted((exclude or {}).get(index, ())),
            }
            for index, members in sorted(by_list.items())
        ],
    }


def write_text(path: Path, text: str) -> None:
    """One file of the batch (inside the temporary folder that becomes the batch)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[str]]) -> None:
    """RFC 4180: CRLF line ends, fields quoted when needed, UTF-8 without BOM, no formula cells."""
    write_text(path, csv_text(header, rows, lineterminator="\r\n"))
