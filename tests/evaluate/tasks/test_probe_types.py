"""Ettinger's sensitivities and oLMpics' questions, each checked against a direct computation.

One CPRAG-style item (expected word, a within- and a between-category foil) and one ROLE-style
item (one target in the plausible and the role-reversed context) are scored by the probe task
with a tiny masked LM, and every number is recomputed here from the model's own logits: a
softmax over the whole vocabulary at the mask, the candidate's token picked by id. The
tokenizer is a byte-level BPE (a word's leading space is part of its token, as in RoBERTa).
"""

from __future__ import annotations

import pytest

from blimpgen.evaluate.tasks.probes import ProbeOptions
from blimpgen.records.item import ProbeItem

from ..tiny import make_bert, make_tokenizer
from .test_probes import FixedScorer, evaluate_items, summarize_probes

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

TEXTS = [
    "The owner forgot which customer the waitress had served .",
    "He cut the bread with a sharp knife .",
    "She asked him to bring a spoon and a bicycle .",
    "The nurse had helped the doctor .",
    "which doctor the nurse had helped",
    "He asked her to stop wearing lipstick , mascara or a bracelet .",
] * 4
CPRAG = ProbeItem(
    "cprag-00000",
    "cprag",
    "cloze_foils",
    "He wanted to cut the bread . He asked for a sharp [MASK] .",
    ("knife", "spoon", "bicycle"),
    "knife",
    good="knife",
    foils=("spoon", "bicycle"),
    expected=("knife",),
)
ROLE = ProbeItem(
    "role-00000",
    "role",
    "role_contrast",
    "The owner forgot which customer the waitress had [MASK] .",
    ("served",),
    "served",
    good="served",
    expected=("served",),
    arguments=("customer", "waitress"),
    reversed_context="The owner forgot which waitress the customer had [MASK] .",
)


@pytest.fixture(scope="module")
def tiny():
    from blimpgen.evaluate.scoring.scorers.hf_masked import MaskedLMScorer

    tokenizer = make_tokenizer("bytelevel", TEXTS, vocab_size=420)
    model = make_bert(tokenizer, seed=3)
    for word, boost in (("knife", 6.0), ("spoon", 5.9), ("served", 6.0), ("bicycle", 1.0)):
        with torch.no_grad():  # make some words likely, so probability differences can pass the .01 margin
            model.cls.predictions.bias[tokenizer.convert_tokens_to_ids("Ġ" + word)] += boost
    return MaskedLMScorer(model, tokenizer), model, tokenizer


def direct(model, tokenizer, context: str, word: str) -> float:
    """P(word | context) at the mask: one unbatched forward, softmax over the whole vocabulary."""
    ids = tokenizer(context)["input_ids"]
    assert ids.count(tokenizer.mask_token_id) == 1
    with torch.no_grad():
        logits = model(torch.tensor([ids])).logits[0, ids.index(tokenizer.mask_token_id)]
    token = tokenizer.convert_tokens_to_ids("Ġ" + word)
    assert token != tokenizer.unk_token_id
    return torch.softmax(logits.float(), dim=-1)[token].item()


@pytest.mark.parametrize("margin", [0.01, 0.0001])
def test_cprag_sensitivity_is_expected_beating_both_foils(tiny, margin) -> None:
    scorer, model, tokenizer = tiny
    row = evaluate_items(scorer, [CPRAG], ProbeOptions(margin=margin)).rows[0]
    p = {w: direct(model, tokenizer, CPRAG.context, w) for w in CPRAG.candidates}
    assert row.prob_good == pytest.approx(p["knife"], rel=1e-4)
    assert row.prob_foils == pytest.approx([p["spoon"], p["bicycle"]], rel=1e-4)
    assert row.sensitive == float(p["knife"] > p["spoon"] and p["knife"] > p["bicycle"])
    assert row.sensitive_margin == float(p["knife"] - p["spoon"] > margin and p["knife"] - p["bicycle"] > margin)
    assert row.correct == float(max(p, key=p.get) == "knife")  # multiple choice among the three
    # the boosts make the margin matter: knife beats both, but beats spoon by less than .01
    assert row.sensitive == 1.0 and 0 < p["knife"] - p["spoon"] < 0.01 < p["knife"] - p["bicycle"]
    assert row.sensitive_margin == (1.0 if margin < p["knife"] - p["spoon"] else 0.0)
    ranked = sorted(range(len(tokenizer)), key=lambda t: -direct_logit(model, tokenizer, CPRAG.context)[t])
    rank = ranked.index(tokenizer.convert_tokens_to_ids("Ġknife")) + 1
    assert row.expected_ranks == {"knife": rank} and row.top_k["top1"] == float(rank == 1)


def direct_logit(model, tokenizer, context: str) -> list[float]:
    ids = tokenizer(context)["input_ids"]
    with torch.no_grad():
        return model(torch.tensor([ids])).logits[0, ids.index(tokenizer.mask_token_id)].tolist()


def test_cprag_top_k_and_sensitivity_count_once_per_context(tiny) -> None:
    """Ettinger counts CPRAG accuracy per context (34), not per context/completion row (102)."""
    scorer, _, _ = tiny
    rows = evaluate_items(scorer, [CPRAG], ProbeOptions()).rows
    summary = summarize_probes(type("S", (list,), {"rows": rows})(), ProbeOptions())
    cprag = summary["suites"]["cprag"]
    assert cprag["n_items"] == 1 and cprag["top1"]["n_items"] == 1 and cprag["sensitivity"]["n_items"] == 1


def test_role_sensitivity_is_one_target_in_two_contexts(tiny) -> None:
    scorer, model, tokenizer = tiny
    row = evaluate_items(scorer, [ROLE], ProbeOptions()).rows[0]
    good = direct(model, tokenizer, ROLE.context, "served")
    reversed_ = direct(model, tokenizer, ROLE.reversed_context, "served")
    assert row.prob_good == pytest.approx(good, rel=1e-4) and row.prob_bad == pytest.approx(reversed_, rel=1e-4)
    assert row.sensitive == float(good > reversed_)
    assert row.sensitive_margin == float(good - reversed_ > 0.01)
    assert row.correct is None and row.logprobs == []  # no multiple choice: one target
    assert row.reversed_context == ROLE.reversed_context and row.good == "served"


def test_role_sensitivity_reads_the_two_contexts_in_order() -> None:
    """A scorer that prefers the target in the plausible context is sensitive; swap them and it is not."""
    table = {
        ("The owner forgot which customer the waitress had ", " .", "served"): 0.6,  # probabilities
        ("The owner forgot which waitress the customer had ", " .", "served"): 0.05,
    }
    row = evaluate_items(FixedScorer(table), [ROLE], ProbeOptions()).rows[0]
    assert (row.sensitive, row.sensitive_margin) == (1.0, 1.0)
    assert row.prob_good - row.prob_bad == pytest.approx(0.55)
    swapped = ProbeItem(**{**ROLE.__dict__, "context": ROLE.reversed_context, "reversed_context": ROLE.context})
    row = evaluate_items(FixedScorer(table), [swapped], ProbeOptions()).rows[0]
    assert (row.sensitive, row.sensitive_margin) == (0.0, 0.0)


def test_questions_are_scored_by_sentence_whatever_the_method() -> None:
    question = ProbeItem(
        "q-00000",
        "q",
        "question",
        "What is found in a kitchen and used for cutting ?",
        ("kitchen knife", "spoon", "hand saw"),
        "kitchen knife",
    )
    for method in ("blank", "sentence"):
        row = evaluate_items(FixedScorer({}), [question], ProbeOptions(probe_method=method)).rows[0]
        assert row.probe_method == "sentence"
        # FixedScorer scores a sentence by minus its length: the shortest answer wins
        assert row.predicted == "spoon" and row.correct == 0.0 and len(row.logprobs) == 3


def test_replicated_shuffles_report_mean_and_sd() -> None:
    from blimpgen.generators.controls import derive_controls

    items = [
        ProbeItem(
            f"s-{i:05d}", "s", "multiple_choice", f"w{i} x y z . It is [MASK] .", ("b", "cc"), "b" if i % 2 else "cc"
        )
        for i in range(6)
    ]
    made = [c for item in items for c in derive_controls(item, ("none", "shuffled"), shuffles=4)]
    rows = evaluate_items(FixedScorer({}), made, ProbeOptions(probe_method="sentence")).rows
    summary = summarize_probes(type("S", (list,), {"rows": rows})(), ProbeOptions())
    shuffled = summary["suites"]["s[shuffled]"]["mc_accuracy"]
    assert shuffled["replicates"] == 4 and shuffled["sd"] == 0.0 and shuffled["accuracy"] == 0.5
    assert "replicates" not in summary["suites"]["s"]["mc_accuracy"]
    # the interval counts the 6 items, not the 24 shuffled rows (probes audit: replicates are not
    # independent, and an interval over rows narrows with every shuffle added)
    original = summary["suites"]["s"]["mc_accuracy"]
    assert shuffled["n_items"] == 6 == original["n_items"]
    assert (shuffled["ci_low"], shuffled["ci_high"]) == (original["ci_low"], original["ci_high"])
