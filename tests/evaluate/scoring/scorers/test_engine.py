"""The causal engine's prefix-tree packing: every sequence rebuilt, scores equal to unshared ones."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from blimpgen.evaluate.scoring.scorers._engine import _batches, _packs, run_items  # noqa: E402
from blimpgen.evaluate.scoring.scorers.hf_causal import CausalLMScorer  # noqa: E402

from ...tiny import make_gpt2, make_tokenizer  # noqa: E402

# few distinct tokens, so that sequences often share prefixes and sometimes whole fed parts
_sequences = st.lists(st.integers(6, 9), min_size=1, max_size=9).map(tuple)
_items = st.lists(
    st.tuples(_sequences, st.integers(0, 9)).map(lambda t: (t[0], min(max(t[1], 1), len(t[0])))),
    min_size=1,
    max_size=14,
    unique=True,
)


def _ancestors(pack, node: int) -> list[int]:
    ends = pack.subtree_ends()
    return [j for j in range(node + 1) if node < ends[j]]


@given(items=_items, cap=st.integers(1, 40), share=st.booleans())
def test_engine_packs_rebuild_every_sequence(items, cap, share):
    packs = _packs(items, cap, share)
    wanted = {}
    for pack in packs:
        # a pack over its cap holds a single sequence, which no row could split
        assert len(pack.tokens) <= cap or len({item for _, _, item, _ in pack.wanted}) == 1
        branching = any(len(_ancestors(pack, node)) != node + 1 for node in range(len(pack.tokens)))
        assert pack.is_chain == (not branching)
        members = {item for _, _, item, _ in pack.wanted}
        if share:  # each distinct prefix of the members' fed tokens is one node
            prefixes = {items[m][0][:k] for m in members for k in range(1, len(items[m][0]))}
            assert len(pack.tokens) == len(prefixes)
        for node, target, item, slot in pack.wanted:
            ids, start = items[item]
            path = _ancestors(pack, node)
            assert [pack.tokens[j] for j in path] == list(ids[: start + slot])
            assert [pack.depths[j] for j in path] == list(range(len(path)))
            assert target == ids[start + slot]
            assert (item, slot) not in wanted
            wanted[(item, slot)] = target
    assert set(wanted) == {(i, slot) for i, (ids, start) in enumerate(items) for slot in range(len(ids) - start)}


@given(items=_items, budget=st.integers(1, 60))
def test_engine_batches_keep_every_pack_within_budget(items, budget):
    packs = _packs(items, min(budget, 16), True)
    batches = _batches(packs, budget)
    assert sorted(id(p) for b in batches for p in b) == sorted(id(p) for p in packs)
    for batch in batches:
        assert len(batch) == 1 or len(batch) * max(len(p.tokens) for p in batch) <= budget


@pytest.fixture(scope="module")
def scorer_and_reference():
    tokenizer = make_tokenizer("wordlevel")
    model = make_gpt2(tokenizer)

    def reference(ids, start):
        with torch.no_grad():
            logprobs = torch.log_softmax(model(torch.tensor([ids])).logits[0].float(), dim=-1)
        return [logprobs[j - 1, ids[j]].item() for j in range(start, len(ids))]

    return CausalLMScorer(model, tokenizer), reference


@settings(max_examples=25)
@given(items=_items, budget=st.sampled_from([4, 12, 40, 4096]), share=st.booleans())
def test_engine_shared_trees_equal_unbatched_scores(scorer_and_reference, items, budget, share):
    """Prefix trees across any set of sequences (forests, equal fed parts, contexts, rows split
    by the cap) give each sequence the scores of its own unbatched forward pass."""
    scorer, reference = scorer_and_reference
    scorer.batch_tokens = budget
    for (ids, start), values in zip(items, run_items(scorer, items, share=share)):
        expected = reference(ids, start)
        assert len(values) == len(expected)
        assert all(abs(a - b) < 1e-4 for a, b in zip(values, expected))
