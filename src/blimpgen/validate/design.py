"""The design of a validation batch: which pairs, in which HITs, in which order and position.

How "every pair judged by J workers" works with at most 9 assignments per HIT (MTurk adds a
20 % fee from 10 assignments on): the sampled pairs are cut into *lists* of ``items_per_hit``
pairs, and each list is posted as ``R = ceil(J / max_assignments)`` replica HITs with
``A = ceil(J / R)`` assignments each, so each pair gets ``R * A >= J`` judgments (20 -> 3 x 7 =
21). Replicas of a list show the same pairs, each in its own random order, with its own
attention check and its own counterbalancing. MTurk stops a worker from taking one HIT twice
but not two replicas of a list; ingest keeps only a worker's first submission per list.

Lists mix paradigms (pairs are dealt round-robin over paradigms), a short last list is padded
with *filler* pairs that are shown but not analysed, and every HIT gets one attention check in
a random slot. Every random choice draws from its own stream seeded by ``(seed, purpose)``.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import quote, unquote

from blimpgen.errors import DataError, OptionError
from blimpgen.records.pair import MinimalPair
from blimpgen.validate.attention import make_checks
from blimpgen.validate.balance import balanced_orientation

MTURK_FEE_FREE_MAX_ASSIGNMENTS = 9
KINDS = ("real", "check", "filler")


@dataclass(frozen=True)
class BatchOptions:
    """What the user asks of a batch.

    Args:
        pairs_per_paradigm: pairs sampled (at random, with ``seed``) from each paradigm.
        judgments: workers who must judge each pair.
        items_per_hit: real pairs per HIT; each HIT shows one attention check more.
        max_assignments: most assignments per HIT (at most 9, see module docstring).
        seed: seed for sampling, order, attention checks and counterbalancing.
    """

    pairs_per_paradigm: int = 5
    judgments: int = 20
    items_per_hit: int = 10
    max_assignments: int = MTURK_FEE_FREE_MAX_ASSIGNMENTS
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("pairs_per_paradigm", "judgments", "items_per_hit", "max_assignments"):
            if getattr(self, name) < 1:
                raise OptionError(f"{name.replace('_', '-')} must be at least 1, got {getattr(self, name)}")
        if self.max_assignments > MTURK_FEE_FREE_MAX_ASSIGNMENTS:
            raise OptionError(
                f"max-assignments {self.max_assignments} is above {MTURK_FEE_FREE_MAX_ASSIGNMENTS}: MTurk charges "
                "an extra 20% fee from 10 assignments per HIT; blimpgen posts replica HITs instead"
            )

    @property
    def replicas(self) -> int:
        """HITs posted per list."""
        return math.ceil(self.judgments / self.max_assignments)

    @property
    def assignments_per_hit(self) -> int:
        """Assignments per HIT, spread evenly over the replicas."""
        return math.ceil(self.judgments / self.replicas)


@dataclass(frozen=True)
class Item:
    """One forced-choice question on a HIT.

    ``kind`` is ``real`` (analysed), ``check`` (attention check) or ``filler`` (pads a short
    list, shown but not analysed). ``good_position`` is the option (1 or 2) holding the
    acceptable sentence.
    """

    slot: int
    kind: str
    uid: str
    pair_id: str
    sentence_good: str
    sentence_bad: str
    good_position: int
    linguistics_term: str = ""
    field: str = ""
    source: str = ""
    item_id: str = ""

    @property
    def options(self) -> tuple[str, str]:
        """The two sentences in the order shown: option 1, option 2."""
        if self.good_position == 1:
            return self.sentence_good, self.sentence_bad
        return self.sentence_bad, self.sentence_good

    @property
    def code(self) -> str:
        """Self-decoding id ``slot|kind|UID|pair_id`` (parts percent-encoded); kept in the key, never in the page."""
        return "|".join([str(self.slot), self.kind, quote(self.uid, safe=""), quote(self.pair_id, safe="")])


def opaque_item_id(secret: bytes, hit_code: str, item: Item) -> str:
    """The id a page shows for ``item``: an HMAC of its code, so it reveals neither kind, paradigm nor pair."""
    return hmac.new(secret, f"{hit_code}|{item.code}".encode(), hashlib.sha256).hexdigest()[:16]


def decode_item_code(code: str) -> tuple[int, str, str, str]:
    """Split an :attr:`Item.code` back into ``(slot, kind, UID, pair_id)``.

    Raises:
        DataError: when ``code`` is not an item code.
    """
    parts = code.split("|")
    if len(parts) != 4 or not parts[0].isdigit() or parts[1] not in KINDS:
        raise DataError(f"not a blimpgen item code: {code!r} (expected slot|kind|UID|pair_id)")
    return int(parts[0]), parts[1], unquote(parts[2]), unquote(parts[3])


@dataclass(frozen=True)
class Hit:
    """One HIT: a replica of a list, with its items in slot order (slot 1 first)."""

    code: str
    list_index: int
    replica: int
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Design:
    """A whole batch: the HITs plus the numbers that explain them."""

    tag: str
    hits: tuple[Hit, ...]
    options: BatchOptions
    n_lists: int
    uids: tuple[str, ...]

    @property
    def slots(self) -> int:
        """Items per HIT, attention check included."""
        return self.options.items_per_hit + 1

    @property
    def judgments_per_pair(self) -> int:
        """Judgments each real pair receives when every assignment is done."""
        return self.options.replicas * self.options.assignments_per_hit


def pair_key(pair: MinimalPair, index: int) -> str:
    """A pair's stable id: ``pair_id``, else ``{UID}-{pairID}``, else ``{UID}-{index:05d}``."""
    if pair.pair_id:
        return pair.pair_id
    return f"{pair.UID}-{pair.pairID}" if pair.pairID else f"{pair.UID}-{index:05d}"


def design_batch(pairs: Iterable[MinimalPair], options: BatchOptions) -> Design:
    """Sample pairs and lay them out as HITs.

    Args:
        pairs: every available pair, in file order (order matters for reproducibility only).
        options: sizes and seed.

    Returns:
        The :class:`Design`; the same pairs and options always give the same design.

    Raises:
        DataError: for duplicate pair ids, or too few sentences to build distinct
            attention checks.
        OptionError: for a paradigm with too few pairs for the design.
    """
    by_uid = _group(pairs)
    if not by_uid:
        raise DataError("no pairs to validate: the data is empty")
    seed = options.seed
    sampled: dict[str, list[tuple[str, MinimalPair]]] = {}
    for uid, members in by_uid.items():
        if len(members) < options.pairs_per_paradigm:
            raise OptionError(
                f"{uid}: has {len(members)} pairs, fewer than --pairs-per-paradigm {options.pairs_per_paradigm}; "
                "lower it or generate more pairs"
            )
        sampled[uid] = random.Random(f"{seed}:sample:{uid}").sample(members, options.pairs_per_paradigm)
    lists = _deal_lists(sampled, options.items_per_hit, random.Random(f"{seed}:lists"))
    chosen = {key for members in sampled.values() for key, _ in members}
    unsampled = [(key, pair) for members in by_uid.values() for key, pair in members if key not in chosen]
    _pad_last_list(lists, options.items_per_hit, unsampled, sampled, random.Random(f"{seed}:fillers"))

    tag = _batch_tag(lists, options)
    layout = [(index, replica) for index in range(len(lists)) for replica in range(options.replicas)]
    shown = [frozenset(s for _, _, p in lists[index] for s in (p.sentence_good, p.sentence_bad)) for index, _ in layout]
    checks = make_checks(
        shown,
        preferred=[(key, p.sentence_good) for key, p in unsampled],
        fallback=[(key, p.sentence_good) for key in sorted(sampled) for key, p in sampled[key]],
        rng=random.Random(f"{seed}:checks"),
    )

    drafts: list[tuple[str, int, int, list[Item]]] = []
    edges: list[tuple[int, str]] = []
    for number, ((index, replica), check) in enumerate(zip(layout, checks, strict=True)):
        code = f"{tag}-{index + 1:03d}-{replica + 1}"
        items = [
            Item(0, kind, p.UID, key, p.sentence_good, p.sentence_bad, 1, p.linguistics_term, p.field)
            for kind, key, p in lists[index]
        ]
        items.append(Item(0, "check", "", f"check-{code}", check.good, check.bad, 1, source=check.source))
        random.Random(f"{seed}:order:{code}").shuffle(items)
        drafts.append((code, index, replica, items))
        edges += [(number, item.uid if item.kind == "real" else f"_{item.kind}") for item in items]
    sides = iter(balanced_orientation(edges, random.Random(f"{seed}:positions")))
    hits = []
    for code, index, replica, items in drafts:
        placed = tuple(_place(item, slot, next(sides)) for slot, item in enumerate(items, start=1))
        hits.append(Hit(code=code, list_index=index + 1, replica=replica + 1, items=placed))
    return Design(tag=tag, hits=tuple(hits), options=options, n_lists=len(lists), uids=tuple(sorted(by_uid)))


def _place(item: Item, slot: int, side: int) -> Item:
    return Item(
        slot,
        item.kind,
        item.uid,
        item.pair_id,
        item.sentence_good,
        item.sentence_bad,
        1 + side,
        item.linguistics_term,
        item.field,
        item.source,
        item.item_id,
    )


def _group(pairs: Iterable[MinimalPair]) -> dict[str, list[tuple[str, MinimalPair]]]:
    by_uid: dict[str, list[tuple[str, MinimalPair]]] = {}
    seen: set[str] = set()
    for pair in pairs:
        members = by_uid.setdefault(pair.UID, [])
        key = pair_key(pair, len(members))
        if key in seen:
            raise DataError(f"duplicate pair id {key!r}: each pair needs a unique pair_id (or pairID per UID)")
        seen.add(key)
        members.append((key, pair))
    return {uid: by_uid[uid] for uid in sorted(by_uid)}


def _deal_lists(
    sampled: dict[str, list[tuple[str, MinimalPair]]], size: int, rng: random.Random
) -> list[list[tuple[str, str, MinimalPair]]]:
    """Deal pairs round-robin over shuffled paradigms, then cut into lists of ``size``."""
    order = sorted(sampled)
    rng.shuffle(order)
    dealt = [("real", *sampled[uid][rank]) for rank in range(len(sampled[order[0]])) for uid in order]
    return [dealt[start : start + size] for start in range(0, len(dealt), size)]


def _pad_last_list(
    lists: list[list[tuple[str, str, MinimalPair]]],
    size: int,
    unsampled: Sequence[tuple[str, MinimalPair]],
    sampled: dict[str, list[tuple[str, MinimalPair]]],
    rng: random.Random,
) -> None:
    last = lists[-1]
    if len(last) == size:
        return
    present = {key for _, key, _ in last}
    spare = list(unsampled)
    rng.shuffle(spare)
    reused = [entry for uid in sorted(sampled) for entry in sampled[uid] if entry[0] not in present]
    rng.shuffle(reused)
    for key, pair in spare + reused:
        if len(last) == size:
            break
        last.append(("filler", key, pair))
    if len(last) < size:
        raise OptionError(f"cannot fill HITs of {size} items from {len(present)} pairs; lower --items-per-hit")


def _batch_tag(lists: Sequence[Sequence[tuple[str, str, MinimalPair]]], options: BatchOptions) -> str:
    digest = hashlib.sha256(repr((options, [[key for _, key, _ in members] for members in lists])).encode())
    return "b" + digest.hexdigest()[:6]
