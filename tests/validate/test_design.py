"""Batch design: sampling, lists and replicas, attention checks, counterbalancing."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blimpgen._io import data_files
from blimpgen.errors import BlimpgenError
from blimpgen.records.jsonl import read_pairs
from blimpgen.records.pair import MinimalPair
from blimpgen.validate.design import BatchOptions, decode_item_code, design_batch

from .conftest import DATA, UIDS


def _pairs() -> list[MinimalPair]:
    return [pair for path in data_files(DATA) for pair in read_pairs(path)]


@pytest.mark.parametrize(
    ("judgments", "max_assignments", "replicas", "assignments"),
    [(20, 9, 3, 7), (9, 9, 1, 9), (10, 9, 2, 5), (1, 9, 1, 1), (20, 5, 4, 5), (27, 9, 3, 9)],
)
def test_design_replicas_reach_requested_judgments(
    judgments: int, max_assignments: int, replicas: int, assignments: int
) -> None:
    options = BatchOptions(judgments=judgments, max_assignments=max_assignments)
    assert (options.replicas, options.assignments_per_hit) == (replicas, assignments)
    assert options.assignments_per_hit <= 9
    assert judgments <= replicas * assignments < judgments + replicas


def test_design_refuses_ten_or_more_assignments() -> None:
    with pytest.raises(BlimpgenError, match="extra 20% fee"):
        BatchOptions(max_assignments=10)


@pytest.mark.parametrize("name", ["pairs_per_paradigm", "judgments", "items_per_hit", "max_assignments"])
def test_design_refuses_zero_sizes(name: str) -> None:
    with pytest.raises(BlimpgenError, match="must be at least 1"):
        BatchOptions(**{name: 0})


def test_design_every_pair_in_every_replica_once() -> None:
    options = BatchOptions(pairs_per_paradigm=5, judgments=20, items_per_hit=6)
    design = design_batch(_pairs(), options)
    assert len(design.hits) == math.ceil(20 / 6) * options.replicas
    seen = Counter((item.uid, item.pair_id) for hit in design.hits for item in hit.items if item.kind == "real")
    assert len(seen) == 5 * len(UIDS)
    assert set(seen.values()) == {options.replicas}
    assert design.judgments_per_pair >= 20
    for hit in design.hits:
        kinds = Counter(item.kind for item in hit.items)
        assert kinds["check"] == 1
        assert len(hit.items) == 7 and [item.slot for item in hit.items] == list(range(1, 8))


def test_design_samples_at_random_not_the_first_pairs() -> None:
    design = design_batch(_pairs(), BatchOptions(pairs_per_paradigm=5, seed=0))
    indices = {int(item.pair_id.rsplit("-", 1)[1]) for hit in design.hits for item in hit.items if item.kind == "real"}
    assert indices != set(range(5))
    other = design_batch(_pairs(), BatchOptions(pairs_per_paradigm=5, seed=1))
    assert design.tag != other.tag


def test_design_same_seed_same_design() -> None:
    assert design_batch(_pairs(), BatchOptions(seed=4)) == design_batch(_pairs(), BatchOptions(seed=4))


@pytest.mark.parametrize(("per_paradigm", "items", "judgments"), [(5, 6, 20), (5, 10, 20), (3, 4, 9), (12, 7, 12)])
def test_design_good_position_balanced_per_hit_and_per_paradigm(per_paradigm: int, items: int, judgments: int) -> None:
    design = design_batch(
        _pairs(), BatchOptions(pairs_per_paradigm=per_paradigm, items_per_hit=items, judgments=judgments)
    )
    per_uid: Counter = Counter()
    for hit in design.hits:
        first = sum(1 if item.good_position == 1 else -1 for item in hit.items)
        assert abs(first) <= 1, hit.code
        for item in hit.items:
            if item.kind == "real":
                per_uid[item.uid] += 1 if item.good_position == 1 else -1
    assert all(abs(v) <= 1 for v in per_uid.values()), per_uid


def test_design_checks_unique_across_the_batch() -> None:
    design = design_batch(_pairs(), BatchOptions(pairs_per_paradigm=5, items_per_hit=4, judgments=20))
    checks = [item for hit in design.hits for item in hit.items if item.kind == "check"]
    assert len(checks) == len(design.hits)
    assert len({c.sentence_good for c in checks}) == len(checks)
    assert len({c.sentence_bad for c in checks}) == len(checks)
    for hit in design.hits:
        shown = {s for item in hit.items if item.kind != "check" for s in (item.sentence_good, item.sentence_bad)}
        check = next(item for item in hit.items if item.kind == "check")
        assert check.sentence_good not in shown and check.sentence_bad not in shown
        assert check.source  # names the pair it came from


def test_design_pads_a_short_last_list_with_fillers() -> None:
    design = design_batch(_pairs(), BatchOptions(pairs_per_paradigm=5, items_per_hit=6))  # 20 pairs = 6+6+6+2
    fillers = [item for hit in design.hits for item in hit.items if item.kind == "filler"]
    assert len(fillers) == 4 * design.options.replicas
    real = {(i.uid, i.pair_id) for hit in design.hits for i in hit.items if i.kind == "real"}
    assert all((f.uid, f.pair_id) not in real for f in fillers)  # unsampled pairs first


def test_design_mixes_paradigms_within_a_list() -> None:
    design = design_batch(_pairs(), BatchOptions(pairs_per_paradigm=5, items_per_hit=4))
    for hit in design.hits:
        uids = [item.uid for item in hit.items if item.kind == "real"]
        assert len(set(uids)) == len(uids)


def test_design_too_few_pairs_in_a_paradigm() -> None:
    message = "anaphor_gender_agreement: has 12 pairs, fewer than --pairs-per-paradigm 13"
    with pytest.raises(BlimpgenError, match=message):
        design_batch(_pairs(), BatchOptions(pairs_per_paradigm=13))


def test_design_duplicate_pair_ids() -> None:
    pair = MinimalPair("A good one here.", "A bad one here.", "uid_x", pairID="1")
    with pytest.raises(BlimpgenError, match="duplicate pair id 'uid_x-1'"):
        design_batch([pair, pair], BatchOptions(pairs_per_paradigm=1))


def test_design_empty_data() -> None:
    with pytest.raises(BlimpgenError, match="data is empty"):
        design_batch([], BatchOptions())


@given(st.integers(1, 500), st.sampled_from(["real", "check", "filler"]), st.text(max_size=20), st.text(max_size=30))
def test_design_item_code_round_trips(slot: int, kind: str, uid: str, pair_id: str) -> None:
    from blimpgen.validate.design import Item

    item = Item(slot, kind, uid, pair_id, "g", "b", 1)
    assert decode_item_code(item.code) == (slot, kind, uid, pair_id)
    assert not set(item.code) & set("\"'<>&")  # safe inside an HTML attribute


@pytest.mark.parametrize("code", ["", "1|real|a", "x|real|a|b", "1|other|a|b"])
def test_design_decode_rejects_other_codes(code: str) -> None:
    with pytest.raises(BlimpgenError, match="not a blimpgen item code"):
        decode_item_code(code)


@given(
    st.integers(1, 5),
    st.integers(6, 14),
    st.integers(1, 6),
    st.integers(1, 6),
    st.integers(1, 25),
    st.integers(0, 10**6),
)
def test_design_invariants_for_any_sizes(
    n_paradigms: int, n_pairs: int, per_paradigm: int, items: int, judgments: int, seed: int
) -> None:
    pairs = [
        MinimalPair(
            f"Speaker {u} said item {i} aloud today.",
            f"Speaker {u} say item {i} aloud today.",
            f"uid_{u}",
            pairID=str(i),
        )
        for u in range(n_paradigms)
        for i in range(n_pairs)
    ]
    options = BatchOptions(pairs_per_paradigm=per_paradigm, items_per_hit=items, judgments=judgments, seed=seed)
    n_hits = math.ceil(n_paradigms * per_paradigm / items) * options.replicas
    try:
        design = design_batch(pairs, options)
    except BlimpgenError as error:  # allowed only when sentences are genuinely short for checks
        assert str(error).startswith("attention checks:") and len(pairs) < n_hits + items
        return
    seen = Counter((item.uid, item.pair_id) for hit in design.hits for item in hit.items if item.kind == "real")
    assert len(seen) == n_paradigms * per_paradigm and set(seen.values()) == {options.replicas}
    assert options.assignments_per_hit <= 9 and design.judgments_per_pair >= judgments
    checks = [item.sentence_good for hit in design.hits for item in hit.items if item.kind == "check"]
    assert len(checks) == len(set(checks)) == len(design.hits)
    per_uid: Counter = Counter()
    for hit in design.hits:
        assert len(hit.items) == items + 1
        assert abs(sum(1 if item.good_position == 1 else -1 for item in hit.items)) <= 1
        for item in hit.items:
            if item.kind == "real":
                per_uid[item.uid] += 1 if item.good_position == 1 else -1
    assert all(abs(v) <= 1 for v in per_uid.values())
