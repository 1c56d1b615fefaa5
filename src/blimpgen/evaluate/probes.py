"""Cloze probes: multiple-choice accuracy, top-k accuracy and sensitivity, per item and per suite.

Every item gets (see :class:`~blimpgen.records.item.ProbeItem`):

* **multiple-choice accuracy** (oLMpics' zero-shot setting), by ``probe_method``:
  ``blank`` restricts the distribution at the blank to the K candidates (a log-softmax of
  their blank log-probabilities, each candidate in its own context when the item has
  ``contexts``); ``sentence`` scores the whole sentence with each candidate (summed
  log-probability). The best candidate wins; a tie between the answer and the best other
  candidate counts per the tie policy, as for pairs. Default: ``blank`` for masked LMs
  (:attr:`Scorer.default_probe_method`), ``sentence`` for every other scorer.

Cloze contrasts (Ettinger 2020) also get:

* **top-k accuracy** (k = 1 and 5 by default): whether an expected completion is among the
  k most probable tokens at the blank, in the answer's context. Expected words that are not
  one token of the model cannot be a top token and are left out; an item none of whose
  expected words is one token, or scored by a scorer with no token distribution, is *not
  applicable* and counted as such. Items with no expected completions have no top-k.
* **sensitivity**: P(good) > P(bad) at the blank (ties per the tie policy), and the margin
  version P(good) - P(bad) >= 0.01, with probabilities normalised over the full vocabulary.

Summaries follow :mod:`blimpgen.evaluate.metrics`: Wilson intervals per suite (a UID, with the
control appended when it is not ``none``: ``neg_simp[shuffled]``) and per group within a suite;
per phenomenon and overall the mean over suites, with the pooled item accuracy beside it.

Controls (:mod:`blimpgen.generators.controls`) are baselines for the suite they are derived
from, not more suites: each is reported as its own row right after its suite (which lists them
under ``controls``), and never enters a phenomenon's or the overall mean.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from blimpgen.errors import BlimpgenError, DataError, OptionError
from blimpgen.evaluate.scoring.base import (
    BlankQuery,
    BlankScores,
    Query,
    QueryError,
    Scorer,
)
from blimpgen.evaluate.metrics import (
    TIE_POLICIES,
    judge,
    mean_interval,
    wilson_interval,
)
from blimpgen.records.item import ProbeItem

PROBE_METHODS = ("blank", "sentence")
CHUNK_ITEMS = 4096  # items handed to a scorer at once
NOT_APPLICABLE = ("multi_token", "no_top_k")  # top-k statuses counted as not applicable


@dataclass(frozen=True)
class ProbeOptions:
    """How probe items are scored; every field is written into every result file.

    Args:
        probe_method: ``blank`` or ``sentence`` for multiple choice; None: the scorer's default.
        top_k: the k of each top-k accuracy.
        margin: the probability margin of the second sensitivity measure.
        tie: how an exact tie counts: ``wrong``, ``half`` or ``right``.
        limit: score at most this many items per suite (first ones in file order).
    """

    probe_method: str | None = None
    top_k: tuple[int, ...] = (1, 5)
    margin: float = 0.01
    tie: str = "wrong"
    limit: int | None = None


def check_probe_options(options: ProbeOptions) -> None:
    """Reject bad options before any model is loaded.

    Raises:
        BlimpgenError: naming the bad option and the valid values.
    """
    if options.probe_method is not None and options.probe_method not in PROBE_METHODS:
        raise OptionError(f"unknown probe method {options.probe_method!r}; expected one of: "
                          f"{', '.join(PROBE_METHODS)}")
    if not options.top_k or any(k < 1 for k in options.top_k):
        raise OptionError(f"--top-k must be at least 1, got {list(options.top_k)}")
    if not 0 <= options.margin < 1:
        raise OptionError(f"the sensitivity margin must be in [0, 1), got {options.margin}")
    if options.tie not in TIE_POLICIES:
        raise OptionError(f"unknown tie policy {options.tie!r}; expected one of: {', '.join(TIE_POLICIES)}")
    if options.limit is not None and options.limit < 1:
        raise OptionError(f"--limit must be at least 1, got {options.limit}")


def probe_method(scorer: Scorer, options: ProbeOptions) -> str:
    """The multiple-choice method used: the option's, else the scorer's default."""
    return options.probe_method or getattr(scorer, "default_probe_method", "sentence")


def metric_fields(options: ProbeOptions) -> dict[str, str]:
    """Metric name -> the per-item record field holding its 1.0 / 0.0 / None outcome."""
    fields = {"mc_accuracy": "correct"}
    fields.update({f"top{k}": f"top{k}" for k in sorted(set(options.top_k))})
    fields.update({"sensitivity": "sensitive", f"sensitivity@{options.margin:g}": "sensitive_margin"})
    return fields


def suite_name(item: ProbeItem) -> str:
    """The suite an item is reported under: its UID, plus ``[control]`` for a control."""
    return item.UID if item.control == "none" else f"{item.UID}[{item.control}]"


@dataclass
class _Plan:
    """What one item asks the scorer, as indices into its chunk's query lists."""

    item: ProbeItem
    where: str                          # the item's file, for messages
    blanks: dict[str, tuple[int, int]]  # candidate -> (blank query, option index)
    sentences: list[int]                # per candidate: its sentence query (sentence method)
    top: tuple[int, tuple[str, ...]] | None = None  # (blank query, single-token expected words)
    top_status: str | None = None       # scored, no_expected, multi_token, no_top_k; None: no top-k


def _plan(item: ProbeItem, where: str, scorer: Scorer, method: str, blank_queries: list[BlankQuery],
          sentences: list[Query]) -> _Plan:
    plan = _Plan(item, where, {}, [])
    if method == "sentence":
        plan.sentences = list(range(len(sentences), len(sentences) + len(item.candidates)))
        sentences.extend(Query("", item.filled(option)) for option in item.candidates)
    by_context: dict[tuple[str, str], list[str]] = {}
    if method == "blank" or item.item_type == "cloze_contrast":
        for option in item.candidates:
            by_context.setdefault(item.split(option), []).append(option)
    answer_context, single = item.split(item.answer), ()
    if item.item_type == "cloze_contrast":
        plan.top_status = "no_expected"
        if item.expected:
            query = BlankQuery(*answer_context, tuple(dict.fromkeys(item.expected)))
            single = tuple(w for w, tokens in zip(query.options, scorer.blank_tokens(query)) if len(tokens) == 1)
            plan.top_status = "scored" if single else "multi_token"
    if single:
        by_context.setdefault(answer_context, [])
    for context, options in by_context.items():
        try:
            scorer.check_blank(BlankQuery(*context, tuple(options)))
        except BlimpgenError as exc:
            raise DataError(f"{where}: item {item.item_id!r}: {exc}") from None
        for k, option in enumerate(options):
            plan.blanks[option] = (len(blank_queries), k)
        asked = tuple(options)
        if single and context == answer_context:
            plan.top = (len(blank_queries), single)
            asked += tuple(w for w in single if w not in options)
        blank_queries.append(BlankQuery(*context, asked))
    return plan


def evaluate_items(scorer: Scorer, items: Sequence[tuple[ProbeItem, str]], options: ProbeOptions,
                   progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Score probe items; return one JSON-ready record per item, in input order.

    Raises:
        BlimpgenError: for a masked scorer and a candidate that is not one token (naming the
            item), before anything is scored; naming the item, for a sentence or candidate of
            0 tokens or a text the model cannot read (e.g. longer than its context).
    """
    check_probe_options(options)
    method = probe_method(scorer, options)
    if method not in PROBE_METHODS:
        raise OptionError(f"scorer {scorer.name!r} defaults to an unknown probe method {method!r}")
    top_k = max(options.top_k)
    stamp = _stamp(scorer, method, options)
    # plan every chunk first, so a bad item fails before anything is scored
    chunks = []
    for begin in range(0, len(items), CHUNK_ITEMS):
        blank_queries: list[BlankQuery] = []
        sentences: list[Query] = []
        plans = [_plan(item, where, scorer, method, blank_queries, sentences)
                 for item, where in items[begin:begin + CHUNK_ITEMS]]
        chunks.append((plans, blank_queries, sentences))
    records = []
    for plans, blank_queries, sentences in chunks:
        # only the answer contexts of contrasts need the top tokens (a causal LM's costs a pass)
        with_top = {plan.top[0] for plan in plans if plan.top is not None}
        blanks: list[BlankScores] = [BlankScores(())] * len(blank_queries)
        blank_owner = {i: plan for plan in plans for i, _ in plan.blanks.values()}
        blank_owner.update({plan.top[0]: plan for plan in plans if plan.top is not None})
        for wanted, k in ((False, 0), (True, top_k)):
            asked = [i for i in range(len(blank_queries)) if (i in with_top) == wanted]
            try:
                answered = scorer.blank([blank_queries[i] for i in asked], k) if asked else []
            except QueryError as exc:
                raise _item_error(blank_owner[asked[exc.index]], exc.problem, "its context") from None
            for i, scores in zip(asked, answered):
                blanks[i] = scores
        sentence_scores = _score_sentences(scorer, plans, sentences)
        for plan in plans:
            records.append({**_record(plan, blank_queries, blanks, sentence_scores, method, options), **stamp})
        if progress is not None:
            progress(len(plans))
    return records


def _item_error(plan: _Plan, problem: str, what: str) -> DataError:
    return DataError(f"{plan.where}: item {plan.item.item_id!r}: {what} {problem}")


def _score_sentences(scorer: Scorer, plans: list[_Plan], sentences: list[Query]) -> list[float]:
    """Summed log-probability of each filled sentence (sentence method).

    Raises:
        BlimpgenError: naming the item, for a sentence of 0 tokens or one the scorer refuses.
    """
    if not sentences:
        return []
    owner = {i: plan for plan in plans for i in plan.sentences}
    try:
        scored = scorer.score(sentences)
    except QueryError as exc:
        raise _item_error(owner[exc.index], exc.problem, f"the sentence {sentences[exc.index].text[:60]!r}") from None
    for i, scores in enumerate(scored):
        if not len(scores):
            raise _item_error(owner[i], f"is 0 tokens for scorer {scorer.name!r}, so it has no score; fix the item, "
                                        "or check the model's tokenizer", f"the sentence {sentences[i].text[:60]!r}")
    return [s.total for s in scored]


def model_label(settings: dict[str, Any]) -> str | None:
    """What a result names as its model: the model, else the n-gram file, else the corpus."""
    return settings.get("model") or settings.get("ngram_model") or settings.get("corpus")


def _stamp(scorer: Scorer, method: str, options: ProbeOptions) -> dict[str, Any]:
    return {"model": model_label(scorer.options()), "scorer": scorer.name, "probe_method": method,
            "tie_policy": options.tie}


def _softmax(values: Sequence[float]) -> list[float]:
    top = max(values)
    if math.isinf(top):
        return [1.0 / len(values)] * len(values)
    exps = [math.exp(v - top) for v in values]
    return [e / sum(exps) for e in exps]


def _record(plan: _Plan, blank_queries: list[BlankQuery], blanks: list[BlankScores],
            sentence_scores: list[float], method: str, options: ProbeOptions) -> dict[str, Any]:
    item = plan.item

    def blank_logprob(option: str) -> float:
        query, k = plan.blanks[option]
        return blanks[query].logprobs[k]

    if method == "sentence":
        scores = [sentence_scores[i] for i in plan.sentences]
    else:
        scores = [blank_logprob(option) for option in item.candidates]
    probabilities = _softmax(scores)
    answer = item.candidates.index(item.answer)
    best_other = max(s for i, s in enumerate(scores) if i != answer)
    record: dict[str, Any] = {
        "item_id": item.item_id, "UID": item.UID, "suite": suite_name(item), "control": item.control,
        "group": item.group, "phenomenon": item.linguistics_term or item.UID, "field": item.field,
        "item_type": item.item_type, "context": item.context, "candidates": list(item.candidates),
        "answer": item.answer, "logprobs": scores, "probabilities": probabilities,
        "predicted": item.candidates[scores.index(max(scores))],
        "correct": judge(scores[answer], best_other, options.tie), "tie": scores[answer] == best_other}
    if item.contexts is not None:
        record["contexts"] = dict(item.contexts)
    for k in sorted(set(options.top_k)):
        record[f"top{k}"] = None
    record.update(sensitive=None, sensitive_margin=None)
    if item.item_type != "cloze_contrast":
        return record
    good, bad = blank_logprob(item.good or ""), blank_logprob(item.bad or "")
    record.update(good=item.good, bad=item.bad, logprob_good=good, logprob_bad=bad,
                  prob_good=math.exp(good), prob_bad=math.exp(bad),
                  sensitive=judge(good, bad, options.tie),
                  sensitive_margin=float(math.exp(good) - math.exp(bad) >= options.margin),
                  expected=list(item.expected), top_k_status=plan.top_status)
    if plan.top is not None:
        scored, asked = blanks[plan.top[0]], blank_queries[plan.top[0]].options
        ranks = {w: scored.ranks[asked.index(w)] for w in plan.top[1]} if scored.ranks else {}
        if not ranks or all(r is None for r in ranks.values()):
            record["top_k_status"] = "no_top_k"
        else:
            record.update(top=list(scored.top), expected_ranks=ranks)
            for k in sorted(set(options.top_k)):
                record[f"top{k}"] = float(any(r is not None and r <= k for r in ranks.values()))
    return record


# -- summaries -------------------------------------------------------------------------------------
def _proportion(values: list[float], not_applicable: int) -> dict[str, Any]:
    n, correct = len(values), float(sum(values))
    low, high = wilson_interval(correct, n)
    return {"n_items": n, "not_applicable": not_applicable, "correct": correct,
            "accuracy": correct / n if n else None, "ci_low": low if n else None, "ci_high": high if n else None}


def _mean(rows: list[dict[str, Any]]) -> dict[str, Any]:
    judged = [r for r in rows if r["n_items"]]
    n = sum(r["n_items"] for r in judged)
    row = {"n_suites": len(judged), "n_items": n, "not_applicable": sum(r["not_applicable"] for r in rows),
           "correct": sum(r["correct"] for r in judged), "accuracy": None, "ci_low": None, "ci_high": None,
           "item_accuracy": None}
    if judged:
        low, high = mean_interval([(r["correct"], r["n_items"]) for r in judged])
        row.update(accuracy=sum(r["accuracy"] for r in judged) / len(judged), ci_low=low, ci_high=high,
                   item_accuracy=row["correct"] / n)
    return row


def _metric_rows(records: list[dict[str, Any]], fields: dict[str, str]) -> dict[str, dict[str, Any]]:
    out = {}
    for metric, key in fields.items():
        values = [r[key] for r in records if r.get(key) is not None]
        missing = sum(1 for r in records if metric.startswith("top") and r.get("top_k_status") in NOT_APPLICABLE)
        if values or missing:
            out[metric] = _proportion(values, missing)
    return out


def summarize_probes(records: Sequence[dict[str, Any]], options: ProbeOptions) -> dict[str, Any]:
    """Tables per ``suites`` (with ``groups``), ``phenomena`` and ``overall``; JSON-ready.

    Every level maps each metric name (:func:`metric_fields`) to a row with ``accuracy`` (the
    proportion of judged items that pass; None when none was judged), its interval,
    ``n_items`` judged and ``not_applicable``. A metric no item has is left out.

    Suites are ordered by UID, each followed by its controls (``UID[control]``, with
    ``control`` set); a suite lists its controls' names under ``controls``. Phenomena and
    overall are means over the suites proper: controls are not averaged in.
    """
    fields = metric_fields(options)
    by_suite: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_suite[record["suite"]].append(record)
    suites: dict[str, dict[str, Any]] = {}
    order = sorted(by_suite, key=lambda n: (by_suite[n][0]["UID"], by_suite[n][0]["control"] != "none", n))
    for name in order:
        rows = by_suite[name]
        first = rows[0]
        suite = {"UID": first["UID"], "control": first["control"], "phenomenon": first["phenomenon"],
                 "field": first["field"], "n_items": len(rows), **_metric_rows(rows, fields)}
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for record in rows:
            groups[record["group"]].append(record)
        if set(groups) != {""}:
            suite["groups"] = {group: {"n_items": len(members), **_metric_rows(members, fields)}
                               for group, members in sorted(groups.items())}
        suites[name] = suite
        if first["control"] != "none" and first["UID"] in suites:
            suites[first["UID"]].setdefault("controls", []).append(name)
    proper = [name for name, suite in suites.items() if suite["control"] == "none"]
    by_phenomenon: dict[str, list[str]] = defaultdict(list)
    for name in proper:
        by_phenomenon[suites[name]["phenomenon"]].append(name)

    def aggregate(names: list[str]) -> dict[str, Any]:
        row: dict[str, Any] = {"n_suites": len(names), "n_items": sum(suites[n]["n_items"] for n in names)}
        for metric in fields:
            metric_rows = [suites[n][metric] for n in names if metric in suites[n]]
            if metric_rows:
                row[metric] = _mean(metric_rows)
        return row

    phenomena = {name: aggregate(names) for name, names in sorted(by_phenomenon.items())}
    return {"metrics": list(fields), "overall": aggregate(proper), "phenomena": phenomena, "suites": suites}
