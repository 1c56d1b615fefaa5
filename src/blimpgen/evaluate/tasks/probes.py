"""Cloze probes: multiple-choice accuracy, top-k accuracy and sensitivity, per item.

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

Items are reported per suite (a UID, with the control appended when it is not ``none``:
``neg_simp[shuffled]``) and per group within a suite (:mod:`.probe_summary`). Controls
(:mod:`blimpgen.generators.controls`) are baselines for the suite they are derived from, not
more suites: each is its own row right after its suite, never in a mean.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import Field

from blimpgen.errors import DataError, OptionError
from blimpgen.evaluate.metrics import judge
from blimpgen.evaluate.options import option_field
from blimpgen.evaluate.rows import column
from blimpgen.evaluate.scoring.base import Scorer
from blimpgen.evaluate.scoring.registrations import scorer_id
from blimpgen.evaluate.tasks.base import EvalTask, Located, ModelResult, Selection, TaskOptions, model_label
from blimpgen.evaluate.tasks.probe_plan import ChunkPlan, ChunkScores, ItemPlan, plan_chunk, score_chunk
from blimpgen.evaluate.tasks.probe_summary import ProbeSummary, summarize_probes
from blimpgen.records.item import ProbeItem

ProbeMethod = Literal["blank", "sentence"]
PROBE_METHODS: tuple[str, ...] = get_args(ProbeMethod)


class ProbeOptions(TaskOptions):
    """How probe items are scored; every field is written into every result file.

    Args:
        probe_method: ``blank`` or ``sentence`` for multiple choice; None: the scorer's default.
        top_k: the k of each top-k accuracy.
        margin: the probability margin of the second sensitivity measure.
        tie, limit: see :class:`~blimpgen.evaluate.tasks.base.TaskOptions` (limit: items per suite).
    """

    probe_method: ProbeMethod | None = option_field(None, "--probe-method", label="probe method")
    top_k: tuple[Annotated[int, Field(ge=1)], ...] = option_field((1, 5), "--top-k", min_length=1)
    margin: float = option_field(0.01, "--sensitivity-margin", ge=0, lt=1)


def suite_name(item: ProbeItem) -> str:
    """The suite an item is reported under: its UID, plus ``[control]`` for a control."""
    return item.UID if item.control == "none" else f"{item.UID}[{item.control}]"


@dataclass(frozen=True)
class ItemScore:
    """One scored item, a line of ``items.jsonl``."""

    item_id: str
    UID: str
    suite: str
    control: str
    group: str
    phenomenon: str
    field: str
    item_type: str
    context: str
    candidates: list[str]
    answer: str
    logprobs: list[float]
    probabilities: list[float]
    predicted: str
    correct: float
    tie: bool
    contexts: dict[str, str] | None = column(omit_none=True)
    top_k: dict[str, float | None] = column(flatten=True)           # top1, top5 ...: None when not judged
    sensitive: float | None = column()
    sensitive_margin: float | None = column()
    good: str | None = column(omit_none=True)                       # contrasts only, from here
    bad: str | None = column(omit_none=True)
    logprob_good: float | None = column(omit_none=True)
    logprob_bad: float | None = column(omit_none=True)
    prob_good: float | None = column(omit_none=True)
    prob_bad: float | None = column(omit_none=True)
    expected: list[str] | None = column(omit_none=True)
    top_k_status: str | None = column(omit_none=True)
    top: list[str] | None = column(omit_none=True)                  # when the scorer ranks the vocabulary
    expected_ranks: dict[str, int | None] | None = column(omit_none=True)
    model: str | None = column()
    scorer: str = column()
    probe_method: str = column()
    tie_policy: str = column()

    @property
    def record_id(self) -> str:
        """The item's id, for messages."""
        return self.item_id


def _softmax(values: Sequence[float]) -> list[float]:
    top = max(values)
    if math.isinf(top):
        return [1.0 / len(values)] * len(values)
    exps = [math.exp(v - top) for v in values]
    return [e / sum(exps) for e in exps]


class ProbeTask(EvalTask):
    """Score cloze probe items; see the module docstring."""

    record_type = ProbeItem
    options_type = ProbeOptions
    noun = "item"
    result_noun = "probe results"
    records_file = "items.jsonl"
    groups_key = "suites"
    chunk = 4096
    tie_sides = "the answer and the best other candidate"
    options: ProbeOptions

    def select(self, records: Sequence[Located]) -> Selection:
        """At most ``limit`` items per suite, the first ones in file order.

        Raises:
            DataError: for an ``item_id`` that repeats anywhere in the data.
        """
        seen: dict[str, str] = {}
        for item, where in records:
            if item.item_id in seen:
                raise DataError(f"{where}: item_id {item.item_id!r} repeats (first in {seen[item.item_id]}); "
                                "item ids must be unique across --data")
            seen[item.item_id] = str(where)
        if self.options.limit is None:
            return Selection(list(records))
        counts: dict[str, int] = {}
        kept = []
        for item, where in records:
            suite = suite_name(item)
            counts[suite] = counts.get(suite, 0) + 1
            if counts[suite] <= self.options.limit:
                kept.append((item, where))
        return Selection(kept)

    def prepare(self, scorer: Scorer) -> None:
        """The multiple-choice method (the option's, else the scorer's default) and the row stamp.

        Raises:
            OptionError: when the scorer's default method is not one this task knows.
        """
        self.method = self.options.probe_method or getattr(scorer, "default_probe_method", "sentence")
        if self.method not in PROBE_METHODS:
            raise OptionError(f"scorer {scorer.name!r} defaults to an unknown probe method {self.method!r}")
        self.stamp = {"model": model_label(scorer.options()), "scorer": scorer_id(scorer),
                      "probe_method": self.method, "tie_policy": self.options.tie}

    def plan(self, scorer: Scorer, chunk: Sequence[Located]) -> ChunkPlan:
        """Every item's blank and sentence queries (:func:`~.probe_plan.plan_chunk`).

        Raises:
            DataError: naming the item, for a candidate the scorer cannot score in the blank.
        """
        return plan_chunk(scorer, chunk, self.method)

    def score(self, scorer: Scorer, plan: ChunkPlan) -> list[ItemScore]:
        """Score a planned chunk and judge every item.

        Raises:
            DataError: naming the item, for a text the scorer refuses or a sentence of 0 tokens.
        """
        scores = score_chunk(scorer, plan, max(self.options.top_k))
        return [self._row(item, plan, scores) for item in plan.items]

    def _row(self, plan: ItemPlan, chunk: ChunkPlan, scored: ChunkScores) -> ItemScore:
        item, options = plan.item, self.options

        def blank_logprob(option: str) -> float:
            query, k = plan.blanks[option]
            return scored.blanks[query].logprobs[k]

        if self.method == "sentence":
            scores = [scored.sentences[i] for i in plan.sentences]
        else:
            scores = [blank_logprob(option) for option in item.candidates]
        answer = item.candidates.index(item.answer)
        best_other = max(s for i, s in enumerate(scores) if i != answer)
        top_k: dict[str, float | None] = {f"top{k}": None for k in sorted(set(options.top_k))}
        contrast: dict[str, Any] = dict.fromkeys(("good", "bad", "logprob_good", "logprob_bad", "prob_good",
                                                  "prob_bad", "expected", "top_k_status", "top", "expected_ranks"))
        sensitive = sensitive_margin = None
        if item.is_contrast:
            good, bad = blank_logprob(item.good or ""), blank_logprob(item.bad or "")
            sensitive = judge(good, bad, options.tie)
            sensitive_margin = float(math.exp(good) - math.exp(bad) >= options.margin)
            contrast.update(good=item.good, bad=item.bad, logprob_good=good, logprob_bad=bad, prob_good=math.exp(good),
                            prob_bad=math.exp(bad), expected=list(item.expected), top_k_status=plan.top_status)
            if plan.top is not None:
                asked_scores, asked = scored.blanks[plan.top[0]], chunk.blank_queries[plan.top[0]].options
                ranks = {w: asked_scores.ranks[asked.index(w)] for w in plan.top[1]} if asked_scores.ranks else {}
                if not ranks or all(r is None for r in ranks.values()):
                    contrast["top_k_status"] = "no_top_k"
                else:
                    contrast.update(top=list(asked_scores.top), expected_ranks=ranks)
                    top_k = {f"top{k}": float(any(r is not None and r <= k for r in ranks.values()))
                             for k in sorted(set(options.top_k))}
        return ItemScore(
            item_id=item.item_id, UID=item.UID, suite=suite_name(item), control=item.control, group=item.group,
            phenomenon=item.linguistics_term or item.UID, field=item.field, item_type=item.item_type,
            context=item.context, candidates=list(item.candidates), answer=item.answer, logprobs=scores,
            probabilities=_softmax(scores), predicted=item.candidates[scores.index(max(scores))],
            correct=judge(scores[answer], best_other, options.tie), tie=scores[answer] == best_other,
            contexts=dict(item.contexts) if item.contexts is not None else None, top_k=top_k, sensitive=sensitive,
            sensitive_margin=sensitive_margin, **contrast, **self.stamp)

    def metrics(self) -> dict[str, Callable[[ItemScore], float | None]]:
        """Metric name -> an item's outcome for it (None: not judged)."""
        out: dict[str, Callable[[ItemScore], float | None]] = {"mc_accuracy": lambda row: row.correct}
        for k in sorted(set(self.options.top_k)):
            out[f"top{k}"] = lambda row, key=f"top{k}": row.top_k[key]
        out["sensitivity"] = lambda row: row.sensitive
        out[f"sensitivity@{self.options.margin:g}"] = lambda row: row.sensitive_margin
        return out

    def summarize(self, rows: Sequence[ItemScore]) -> ProbeSummary:
        """Every metric per suite (group, control), phenomenon and overall (:func:`summarize_probes`)."""
        return summarize_probes(rows, self.metrics())

    def settings(self) -> dict[str, Any]:
        """The options (the method resolved), in the order results.json has always had them."""
        o = self.options
        return {"probe_method": self.method, "top_k": sorted(set(o.top_k)), "margin": o.margin, "limit": o.limit,
                "tie_policy": o.tie}

    # -- results read back ------------------------------------------------------------------------
    @classmethod
    def report_table(cls, results: Sequence[ModelResult], metric: str | None
                     ) -> tuple[list[ModelResult], list[str], list[list[Any]], str]:
        """Models x suites of one metric (default ``mc_accuracy``), controls after their suite.

        Raises:
            OptionError: for a metric the results do not have.
        """
        from blimpgen.evaluate.reporting.tables import model_table

        metric = metric or "mc_accuracy"
        views = [result.for_metric(metric) for result in results]
        header, rows = model_table(views, "suite", "groups")
        return views, header, rows, f"\nmetric: {metric}"

    @classmethod
    def report_figures(cls, results: Sequence[ModelResult], folder: str | Path, human: dict[str, float] | None,
                       metric: str | None) -> list[Path]:
        """Bars by phenomenon and by suite, and the correlation of suite accuracies, of one metric."""
        from blimpgen.evaluate.reporting.figures import draw_probe_figures

        return draw_probe_figures(results, folder, human, metric or "mc_accuracy")
