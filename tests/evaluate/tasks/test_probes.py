"""The probe task: blank scoring equals direct computations, multiple choice, top-k, sensitivity, errors."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.evaluate.rows import to_json
from blimpgen.evaluate.runner import evaluate
from blimpgen.evaluate.scoring.base import BlankQuery, BlankScores, Query, QueryError, Scorer, TokenScores
from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer
from blimpgen.evaluate.tasks.probes import ProbeOptions, ProbeTask
from blimpgen.records.item import ProbeItem

from ..tiny import ITEMS, contrast, make_bert, make_gpt2, make_tokenizer, mc, write_items


class Scored(list):
    """Scored items as the JSON lines ``items.jsonl`` holds, with the typed rows at ``.rows``."""

    rows: list


def evaluate_items(
    scorer: Scorer, items: Sequence[ProbeItem], options: ProbeOptions | None = None, where: str = "test.jsonl"
) -> Scored:
    """Score items with the probe task, in one chunk (each item read from ``where``)."""
    task = ProbeTask(options)
    task.prepare(scorer)
    rows = task.score(scorer, task.plan(scorer, [(item, where) for item in items]))
    scored = Scored(to_json(row) for row in rows)
    scored.rows = rows
    return scored


def summarize_probes(scored: Scored, options: ProbeOptions) -> dict:
    """The summary of scored items, as results.json holds it."""
    return ProbeTask(options).summarize(scored.rows).to_json()


# -- a scorer with a hand-set distribution at the blank ---------------------------------------
class FixedScorer(Scorer):
    """Blank probabilities from a table keyed by (left, right, option); no top tokens."""

    name = "fixed"

    def __init__(self, table: dict[tuple[str, str, str], float]) -> None:
        self.table = table
        self.asked: list[BlankQuery] = []

    def score(self, queries: Sequence[Query]) -> list[TokenScores]:
        return [TokenScores((q.text,), (-float(len(q.text)),)) for q in queries]

    def tokenize(self, text: str) -> list[str]:
        return text.split()

    def blank(self, queries: Sequence[BlankQuery], top_k: int = 0) -> list[BlankScores]:
        self.asked.extend(queries)
        return [BlankScores(tuple(math.log(self.table[(q.left, q.right, o)]) for o in q.options)) for q in queries]


def test_probes_sensitivity_and_margin_on_hand_built_items():
    items = [
        contrast("s-00000", "I saw a [MASK] .", "robin", "tree"),  # 0.050 vs 0.045: sensitive, under the margin
        contrast("s-00001", "I saw a [MASK] .", "bird", "stone"),  # 0.050 vs 0.030: both
        contrast("s-00002", "I saw a [MASK] .", "oak", "elm"),  # 0.010 vs 0.020: neither
        contrast("s-00003", "I saw a [MASK] .", "cow", "hen"),  # tie
        contrast(
            "s-00004",
            "I saw a [MASK] .",
            "owl",
            "ant",  # own contexts: 0.30 vs 0.28
            contexts={"owl": "I saw a [MASK] .", "ant": "I saw an [MASK] ."},
        ),
    ]
    left, right = "I saw a ", " ."
    table = {
        (left, right, "robin"): 0.05,
        (left, right, "tree"): 0.045,
        (left, right, "bird"): 0.05,
        (left, right, "stone"): 0.03,
        (left, right, "oak"): 0.01,
        (left, right, "elm"): 0.02,
        (left, right, "cow"): 0.02,
        (left, right, "hen"): 0.02,
        (left, right, "owl"): 0.30,
        ("I saw an ", right, "ant"): 0.28,
    }
    scorer = FixedScorer(table)
    records = evaluate_items(scorer, items, ProbeOptions(probe_method="blank", tie="half"))
    assert [r["sensitive"] for r in records] == [1.0, 1.0, 0.0, 0.5, 1.0]
    assert [r["sensitive_margin"] for r in records] == [0.0, 1.0, 0.0, 0.0, 1.0]
    assert [r["correct"] for r in records] == [1.0, 1.0, 0.0, 0.5, 1.0]
    assert records[4]["prob_good"] == pytest.approx(0.30) and records[4]["prob_bad"] == pytest.approx(0.28)
    # the restricted softmax over the two candidates, each in its own context
    assert records[4]["probabilities"] == pytest.approx([0.30 / 0.58, 0.28 / 0.58])
    assert BlankQuery("I saw an ", " .", ("ant",)) in scorer.asked
    # no expected words: no top-k, and not counted as "not applicable" either
    assert all(r["top1"] is None and r["top_k_status"] == "no_expected" for r in records)
    summary = summarize_probes(records, ProbeOptions(tie="half"))
    suite = summary["suites"]["s"]
    assert suite["sensitivity"]["accuracy"] == pytest.approx(3.5 / 5)
    assert suite["sensitivity@0.01"]["accuracy"] == pytest.approx(2 / 5)
    assert "top1" not in suite


def test_probes_margin_is_configurable():
    item = contrast("s-00000", "I saw a [MASK] .", "robin", "tree")
    scorer = FixedScorer({("I saw a ", " .", "robin"): 0.05, ("I saw a ", " .", "tree"): 0.045})
    records = evaluate_items(scorer, [item], ProbeOptions(margin=0.005))
    assert records[0]["sensitive_margin"] == 1.0
    assert "sensitivity@0.005" in summarize_probes(records, ProbeOptions(margin=0.005))["metrics"]


def test_probes_summary_suites_controls_groups_and_means():
    items = [
        mc("neg_simp-00000", "A [MASK] .", ["b", "cc"], "b", group="one", linguistics_term="neg"),
        mc("neg_simp-00001", "A [MASK] .", ["b", "cc"], "cc", group="two", linguistics_term="neg"),
        mc("neg_simp-00000.shuffled", "A [MASK] .", ["b", "cc"], "b", control="shuffled", linguistics_term="neg"),
        mc("other-00000", "A [MASK] .", ["b", "cc"], "b", linguistics_term="other"),
    ]
    # sentence method with a length-penalising scorer: the shorter candidate "b" always wins
    records = evaluate_items(FixedScorer({}), items, ProbeOptions())
    assert [r["predicted"] for r in records] == ["b", "b", "b", "b"]
    summary = summarize_probes(records, ProbeOptions())
    assert list(summary["suites"]) == ["neg_simp", "neg_simp[shuffled]", "other"]  # a control after its suite
    neg = summary["suites"]["neg_simp"]
    assert neg["mc_accuracy"]["accuracy"] == 0.5 and neg["n_items"] == 2
    assert neg["groups"]["one"]["mc_accuracy"]["accuracy"] == 1.0
    assert neg["groups"]["two"]["mc_accuracy"]["accuracy"] == 0.0
    assert neg["controls"] == ["neg_simp[shuffled]"]
    shuffled = summary["suites"]["neg_simp[shuffled]"]
    assert (shuffled["UID"], shuffled["control"], shuffled["mc_accuracy"]["accuracy"]) == ("neg_simp", "shuffled", 1.0)
    assert "groups" not in summary["suites"]["other"] and "controls" not in summary["suites"]["other"]
    # the control (1.0) is beside its suite, not averaged into the phenomenon or overall
    phenomenon = summary["phenomena"]["neg"]["mc_accuracy"]
    assert (phenomenon["accuracy"], phenomenon["n_suites"]) == (0.5, 1)
    overall = summary["overall"]["mc_accuracy"]
    assert overall["accuracy"] == pytest.approx((0.5 + 1) / 2) and overall["item_accuracy"] == pytest.approx(2 / 3)
    assert (overall["n_suites"], summary["overall"]["n_suites"], summary["overall"]["n_items"]) == (2, 2, 3)
    assert overall["ci_low"] < overall["accuracy"] <= overall["ci_high"]


class RefusingScorer(FixedScorer):
    """Scores like FixedScorer, but a text with "zero" is 0 tokens and one with "long" is too long."""

    def score(self, queries: Sequence[Query]) -> list[TokenScores]:
        for index, query in enumerate(queries):
            if "long" in query.context + query.text:
                raise QueryError(index, "is 999 tokens, more than the 64 that model M can score")
        return [
            TokenScores((), ()) if "zero" in q.text else TokenScores((q.text,), (-float(len(q.text)),)) for q in queries
        ]

    def tokenize(self, text: str) -> list[str]:
        return [] if "zero" in text else text.split()

    blank = Scorer.blank  # score each option after the left context


@pytest.mark.parametrize("method", ["sentence", "blank"])
@pytest.mark.parametrize(
    "word,problem",
    [("zero", "is 0 tokens for scorer 'fixed'"), ("long", "is 999 tokens, more than the 64 that model M can score")],
)
def test_probes_unscorable_sentence_or_candidate_names_the_item(method, word, problem, tmp_path: Path):
    if (method, word) == ("blank", "zero"):
        pytest.skip("a candidate the scorer cannot put in the blank drops its item (next test)")
    items = [
        mc("ok-00000", "A [MASK] .", ["b", "cc"], "b"),
        mc("ok-00001", "A [MASK] .", ["b", word], "b"),
        mc("ok-00002", "A [MASK] .", ["b", "cc"], "b"),
    ]
    data = write_items(tmp_path / "ok.jsonl", items)
    with pytest.raises(BlimpgenError) as info:
        evaluate(RefusingScorer({}), data, ProbeOptions(probe_method=method))
    message = str(info.value)
    assert message.startswith(f"{data}:2: item 'ok-00001': ") and problem in message and "\n" not in message


def test_probes_a_word_the_scorer_cannot_put_in_the_blank_drops_its_item_and_is_counted(tmp_path: Path):
    """Probes audit M9: one multi-token candidate aborted the whole run; Ettinger drops such items."""
    items = [
        mc("ok-00000", "A [MASK] .", ["b", "cc"], "b"),
        mc("ok-00001", "A [MASK] .", ["b", "zero"], "b"),
        contrast("neg-00000", "A [MASK] .", "b", "zero", ["b"]),
        contrast("neg-00001", "A [MASK] .", "b", "cc"),
    ]
    result = evaluate(RefusingScorer({}), write_items(tmp_path / "ok.jsonl", items), ProbeOptions(probe_method="blank"))
    rows = {row.item_id: row for row in result.rows}
    assert rows["ok-00001"].dropped and "'zero' is 0 tokens" in rows["ok-00001"].dropped
    assert rows["ok-00001"].correct is None and rows["neg-00000"].sensitive is None
    assert rows["ok-00000"].dropped is None and rows["ok-00000"].correct is not None
    suites = result.summary.suites
    assert (suites["ok"].n_items, suites["ok"].dropped, suites["ok"].coverage) == (2, 1, 0.5)
    assert suites["ok"].metrics["mc_accuracy"].n_items == 1  # judged on the item it could score
    assert (suites["neg"].dropped, suites["neg"].metrics["sensitivity"].n_items) == (1, 1)
    assert "dropped (a word the model cannot score in the blank" in result.summary.table(result.options)
    with pytest.raises(BlimpgenError, match="no item could be scored: every one of the 1 items was dropped"):
        evaluate(
            RefusingScorer({}), write_items(tmp_path / "zero.jsonl", [items[1]]), ProbeOptions(probe_method="blank")
        )


def test_probes_run_where_every_item_ties_is_refused(tmp_path: Path):
    items = [mc(f"tie-{i:05d}", "The [MASK] is here .", ["cat", "dog"], "cat") for i in range(10)]
    data = write_items(tmp_path / "tie.jsonl", items)
    with pytest.raises(
        BlimpgenError,
        match=r"^every item tied: in all 10 items \(e.g. tie-00000\) the answer and "
        r"the best other candidate got equal scores from unigram",
    ):
        evaluate(UnigramScorer(counts={}), data)
    assert len(evaluate(UnigramScorer(counts={}), data, ProbeOptions(limit=9)).rows) == 9  # a handful may


def test_probes_top_k_not_applicable_is_counted():
    items = [contrast("c-00000", "The cat [MASK] sleeping .", "is", "are", ["is"])]
    records = evaluate_items(UnigramScorer(counts={"is": 5}), items, ProbeOptions())
    assert records[0]["top_k_status"] == "no_top_k" and records[0]["top1"] is None
    top1 = summarize_probes(records, ProbeOptions())["overall"]["top1"]
    assert top1["n_items"] == 0 and top1["not_applicable"] == 1 and top1["accuracy"] is None


# -- neural scorers against direct computations ------------------------------------------------
@pytest.fixture(scope="module")
def masked():
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from blimpgen.evaluate.scoring.scorers.hf_masked import MaskedLMScorer

    tokenizer = make_tokenizer("wordlevel")
    model = make_bert(tokenizer)
    return MaskedLMScorer(model, tokenizer), model, tokenizer


@pytest.fixture(scope="module")
def causal():
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from blimpgen.evaluate.scoring.scorers.hf_causal import CausalLMScorer

    tokenizer = make_tokenizer("wordlevel")
    model = make_gpt2(tokenizer)
    return CausalLMScorer(model, tokenizer, batch_tokens=24), model, tokenizer


def mask_logits(model, tokenizer, text: str):
    import torch

    ids = tokenizer(text)["input_ids"]
    with torch.no_grad():
        return model(torch.tensor([ids])).logits[0, ids.index(tokenizer.mask_token_id)].float()


@pytest.mark.parametrize("batch_tokens", [8, 4096])
def test_probes_masked_restricted_softmax_equals_direct(masked, batch_tokens):
    import torch

    scorer, model, tokenizer = masked
    scorer.batch_tokens = batch_tokens
    records = evaluate_items(scorer, ITEMS, ProbeOptions())
    assert {r["probe_method"] for r in records} == {"blank"}
    for item, record in zip(ITEMS, records):
        logits = torch.stack(
            [
                mask_logits(model, tokenizer, item.context_for(o))[tokenizer.convert_tokens_to_ids(o)]
                for o in item.candidates
            ]
        )
        expected = torch.log_softmax(logits, dim=-1).tolist()
        assert max(abs(math.log(p) - e) for p, e in zip(record["probabilities"], expected)) < 1e-5
        assert record["predicted"] == item.candidates[int(logits.argmax())]
        assert record["correct"] == float(item.candidates[int(logits.argmax())] == item.answer)
    scorer.batch_tokens = 4096


def test_probes_masked_blank_logprobs_top_k_and_ranks_equal_direct(masked):
    import torch

    scorer, model, tokenizer = masked
    query = BlankQuery("The cat ", " sleeping .", ("is", "are", "dog"))
    scores = scorer.blank([query, BlankQuery("A ", " was barking .", ("dog",))], top_k=5)[0]
    logprobs = torch.log_softmax(mask_logits(model, tokenizer, "The cat [MASK] sleeping ."), dim=-1)
    ids = tokenizer.convert_tokens_to_ids(list(query.options))
    assert max(abs(a - logprobs[i].item()) for a, i in zip(scores.logprobs, ids)) < 1e-5
    assert list(scores.top) == [tokenizer.decode([i]).strip() for i in torch.topk(logprobs, 5).indices.tolist()]
    order = torch.argsort(logprobs, descending=True).tolist()
    assert list(scores.ranks) == [order.index(i) + 1 for i in ids]


def test_probes_masked_multi_token_candidate_drops_the_item_with_a_one_line_reason():
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from blimpgen.evaluate.scoring.scorers.hf_masked import MaskedLMScorer

    tokenizer = make_tokenizer("bpe")
    scorer = MaskedLMScorer(make_bert(tokenizer), tokenizer)
    word = "sleeping"
    pieces = tokenizer.tokenize(word)
    assert len(pieces) > 1
    with pytest.raises(BlimpgenError) as info:
        scorer.blank([BlankQuery("The cat is ", " .", (word, "."))])
    message = str(info.value)
    assert len(message.splitlines()) == 1
    assert f"candidate {word!r} is {len(pieces)} tokens for model BertForMaskedLM" in message
    assert ", ".join(repr(p) for p in pieces) in message and "single-token candidates" in message
    item = mc("sleep-00003", "The cat is [MASK] .", [word, "."], word)
    row = evaluate_items(scorer, [item], ProbeOptions(), where="data.jsonl").rows[0]
    assert row.dropped == message and row.correct is None  # dropped and counted, never an abort (M9)


def test_probes_masked_unknown_word_is_an_error_and_no_top_k_word(masked):
    scorer, _, _ = masked
    query = BlankQuery("The cat is ", " .", ("zzz",))
    with pytest.raises(BlimpgenError, match=r"^candidate 'zzz' is not in the vocabulary for model .*\('\[UNK\]'\)"):
        scorer.blank([query])
    assert scorer.blank_tokens(query) == [()]


def test_probes_masked_top_k_skips_multi_token_expected_words():
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from blimpgen.evaluate.scoring.scorers.hf_masked import MaskedLMScorer

    tokenizer = make_tokenizer("bpe")
    scorer = MaskedLMScorer(make_bert(tokenizer), tokenizer)
    single = next(w for w in ("is", "a", "the", ".") if len(tokenizer.tokenize(w)) == 1)
    other = next(w for w in (".", "a", "the", "is") if len(tokenizer.tokenize(w)) == 1 and w != single)
    items = [
        contrast("t-00000", "The cat [MASK] here", single, other, ["sleeping"]),
        contrast("t-00001", "The cat [MASK] here", single, other, ["sleeping", single]),
    ]
    records = evaluate_items(scorer, items, ProbeOptions())
    assert records[0]["top_k_status"] == "multi_token" and records[0]["top5"] is None
    assert records[1]["top_k_status"] == "scored" and list(records[1]["expected_ranks"]) == [single]
    top5 = summarize_probes(records, ProbeOptions())["suites"]["t"]["top5"]
    assert top5["n_items"] == 1 and top5["not_applicable"] == 1


def test_probes_causal_sentence_method_equals_scoring_filled_sentences(causal):
    from ..tiny import naive_causal_logprobs

    scorer, model, tokenizer = causal
    records = evaluate_items(scorer, ITEMS, ProbeOptions())
    assert {r["probe_method"] for r in records} == {"sentence"}
    for item, record in zip(ITEMS, records):
        filled = [item.filled(o) for o in item.candidates]
        direct = [sum(naive_causal_logprobs(model, tokenizer, "", text)) for text in filled]
        assert max(abs(a - b) for a, b in zip(record["logprobs"], direct)) < 1e-4
        assert record["logprobs"] == pytest.approx([s.total for s in scorer.score_texts(filled)], abs=1e-5)
        assert record["predicted"] == item.candidates[direct.index(max(direct))]


def test_probes_causal_blank_uses_left_context_and_top_k_equals_direct(causal):
    import torch

    from ..tiny import naive_causal_logprobs

    scorer, model, tokenizer = causal
    query = BlankQuery("The doctor who the nurses admire ", " tired .", ("is", "are"))
    scores = scorer.blank([query], top_k=5)[0]
    for option, value in zip(query.options, scores.logprobs):
        direct = naive_causal_logprobs(model, tokenizer, "The doctor who the nurses admire", " " + option)
        assert abs(value - sum(direct)) < 1e-4
    ids = [tokenizer.bos_token_id, *tokenizer.encode("The doctor who the nurses admire", add_special_tokens=False)]
    with torch.no_grad():
        logprobs = torch.log_softmax(model(torch.tensor([ids])).logits[0, -1].float(), dim=-1)
    assert list(scores.top) == [tokenizer.decode([i]).strip() for i in torch.topk(logprobs, 5).indices.tolist()]
    order = torch.argsort(logprobs, descending=True).tolist()
    assert list(scores.ranks) == [order.index(tokenizer.convert_tokens_to_ids(o)) + 1 for o in query.options]
    # the right context is ignored
    assert scorer.blank([BlankQuery(query.left, " asleep !", query.options)])[0].logprobs == pytest.approx(
        scores.logprobs, abs=1e-5
    )
    record = evaluate_items(scorer, ITEMS[2:3], ProbeOptions(top_k=(1, 3)))[0]
    assert record["expected_ranks"]["is"] == scores.ranks[0]
    best = min(record["expected_ranks"].values())
    assert (record["top1"], record["top3"]) == (float(best <= 1), float(best <= 3))


def test_probes_default_blank_ignores_right_context_and_gives_no_top():
    scorer = UnigramScorer(counts={"is": 3, "are": 1})
    scores = scorer.blank([BlankQuery("The cat ", " sleeping .", ("is", "are"))], top_k=5)[0]
    assert scores.logprobs == (math.log(4 / 7), math.log(2 / 7)) and scores.top == () and scores.ranks == ()


# -- files, CLI and report ---------------------------------------------------------------------
@pytest.fixture
def probe_file(tmp_path: Path) -> Path:
    return write_items(tmp_path / "probes.jsonl", ITEMS)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "corpus.txt"
    path.write_text("the cat is sleeping .\nthe dog is here .\nthe children have eaten .\n", encoding="utf-8")
    return path


def test_probes_evaluate_limit_and_duplicate_ids(probe_file: Path, tmp_path: Path):
    result = evaluate(UnigramScorer(counts={"is": 2}), probe_file, ProbeOptions(limit=1))
    assert [r.item_id for r in result.rows] == ["agreement-00000", "role-00000"]
    twice = write_items(tmp_path / "twice.jsonl", ITEMS[:1])
    with pytest.raises(BlimpgenError, match="item_id 'agreement-00000' repeats"):
        evaluate(UnigramScorer(counts={}), [probe_file, twice])
