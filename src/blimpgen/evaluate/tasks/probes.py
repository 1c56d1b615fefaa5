"""Probe items: multiple-choice accuracy, top-k accuracy and sensitivity, per item.

Every item type (:mod:`blimpgen.records.item_types`) gets what applies to it:

* **multiple-choice accuracy** (oLMpics' zero-shot setting; every type but role reversals), by
  ``probe_method``: ``blank`` restricts the distribution at the blank to the K candidates (a
  log-softmax of their blank log-probabilities, each candidate in its own context when the item
  has ``contexts``); ``sentence`` scores the whole sentence with each candidate (summed
  log-probability). Questions (MC-QA items, which have no blank) are always scored by sentence:
  the question followed by each answer. The best candidate wins; a tie between the answer and
  the best other candidate counts per the tie policy, as for pairs. Default: ``blank`` for
  masked LMs (:attr:`Scorer.default_probe_method`), ``sentence`` for every other scorer.

Contrasts, foils and role reversals (Ettinger 2020) also get:

* **top-k accuracy** (k = 1 and 5 by default): whether an expected completion is among the
  k most probable tokens at the blank of ``context`` (the answer's; a role item's plausible
  order), one judgement per item, that is per context. Expected words that are not one token
  of the model cannot be a top token and are left out; an item none of whose expected words is
  one token, or scored by a scorer with no token distribution, is *not applicable* and counted
  as such. Items with no expected completions have no top-k.
* **sensitivity**, exactly as Ettinger defines it for each diagnostic: the better cell of every
  comparison (:meth:`ProbeItem.comparisons`) gets the higher probability: P(good) > P(bad)
  (NEG-136), P(expected) above *both* foils (CPRAG-102), P(target | plausible order) >
  P(target | reversed order) (ROLE-88); ties per the tie policy. ``sensitivity@0.01``: every
  difference in probability (normalised over the full vocabulary at the blank) is greater than
  the margin.

An item with a word the scorer cannot score in the blank (a masked LM: not one token) is
dropped, not an error: its row says why, it is judged on nothing, and each suite reports how
many items were scored (``coverage``).

Items are reported per suite (a UID, with the control appended when it is not ``none``:
``neg_simp[shuffled]``) and per group within a suite (:mod:`.probe_summary`). Controls
(:mod:`blimpgen.generators.controls`) are baselines for the suite they are derived from, not
more suites: each is its own row right after its suite, never in a mean. A control with
replicates (several shuffles per item) is reported as the mean over replicates with its SD.
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
    predicted: str | None
    correct: float | None
    tie: bool
    contexts: dict[str, str] | None = column(omit_none=True)
    top_k: dict[str, float | None] = column(flatten=True)  # top1, top5 ...: None when not judged
    sensitive: float | None = column()
    sensitive_margin: float | None = column()
    good: str | None = column(omit_none=True)  # contrast types only, from here
    bad: str | None = column(omit_none=True)
    foils: list[str] | None = column(omit_none=True)
    reversed_context: str | None = column(omit_none=True)
    logprob_good: float | None = column(omit_none=True)
    logprob_bad: float | None = column(omit_none=True)  # the reversed context's for a role item
    logprob_foils: list[float] | None = column(omit_none=True)
    prob_good: float | None = column(omit_none=True)
    prob_bad: float | None = column(omit_none=True)
    prob_foils: list[float] | None = column(omit_none=True)
    expected: list[str] | None = column(omit_none=True)
    top_k_status: str | None = column(omit_none=True)
    top: list[str] | None = column(omit_none=True)  # when the scorer ranks the vocabulary
    expected_ranks: dict[str, int | None] | None = column(omit_none=True)
    replicate: int | None = column(omit_none=True)
    dropped: str | None = column(omit_none=True)  # why the item was not scored
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


class ProbeTask(EvalTask[ChunkPlan]):
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
                raise DataError(
                    f"{where}: item_id {item.item_id!r} repeats (first in {seen[item.item_id]}); "
                    "item ids must be unique across --data"
                )
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
        method = self.options.probe_method or getattr(scorer, "default_probe_method", "sentence")
        if not isinstance(method, str) or method not in PROBE_METHODS:
            raise OptionError(f"scorer {scorer.name!r} defaults to an unknown probe method {method!r}")
        self.method: str = method
        self.stamp = {
            "model": model_label(scorer.options()),
            "scorer": scorer_id(scorer),
            "tie_policy": self.options.tie,
        }

    def group_of(self, record: Any) -> str:
        """An item's suite."""
        return suite_name(record)

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
        top_k: dict[str, float | None] = {f"top{k}": None for k in sorted(set(options.top_k))}
        fields: dict[str, Any] = dict.fromkeys(
            (
                "good",
                "bad",
                "foils",
                "reversed_context",
                "logprob_good",
                "logprob_bad",
                "logprob_foils",
                "prob_good",
                "prob_bad",
                "prob_foils",
                "expected",
                "top_k_status",
                "top",
                "expected_ranks",
            )
        )
        common = dict(
            item_id=item.item_id,
            UID=item.UID,
            suite=suite_name(item),
            control=item.control,
            group=item.group,
            phenomenon=item.linguistics_term or item.UID,
            field=item.field,
            item_type=item.item_type,
            context=item.context,
            candidates=list(item.candidates),
            answer=item.answer,
            contexts=dict(item.contexts) if item.contexts is not None else None,
            replicate=item.replicate,
            **self.stamp,
            probe_method=plan.method,
        )
        if plan.dropped is not None:
            return ItemScore(
                logprobs=[],
                probabilities=[],
                predicted=None,
                correct=None,
                tie=False,
                top_k=top_k,
                sensitive=None,
                sensitive_margin=None,
                dropped=plan.dropped,
                **fields,
                **common,
            )

        def cell_logprob(cell: tuple[str, str]) -> float:
            query, k = plan.cells[cell]
            return scored.blanks[query].logprobs[k]

        scores: list[float] = []
        predicted, correct, tie = None, None, False
        if item.is_multiple_choice:
            if plan.method == "sentence":
                scores = [scored.sentences[i] for i in plan.sentences]
            else:
                scores = [cell_logprob((item.context_for(option), option)) for option in item.candidates]
            answer = item.candidates.index(item.answer)
            best_other = max(s for i, s in enumerate(scores) if i != answer)
            predicted = item.candidates[scores.index(max(scores))]
            correct, tie = judge(scores[answer], best_other, options.tie), scores[answer] == best_other
        sensitive = sensitive_margin = None
        comparisons = item.comparisons()
        if comparisons:
            pairs = [(cell_logprob(better), cell_logprob(worse)) for better, worse in comparisons]
            sensitive = min(judge(b, w, options.tie) for b, w in pairs)
            sensitive_margin = float(all(math.exp(b) - math.exp(w) > options.margin for b, w in pairs))
            good = pairs[0][0]
            fields.update(
                good=item.good,
                logprob_good=good,
                prob_good=math.exp(good),
                expected=list(item.expected),
                top_k_status=plan.top_status,
            )
            if item.foils:
                fields.update(
                    foils=list(item.foils),
                    logprob_foils=[w for _, w in pairs],
                    prob_foils=[math.exp(w) for _, w in pairs],
                )
            else:
                fields.update(
                    bad=item.bad,
                    logprob_bad=pairs[0][1],
                    prob_bad=math.exp(pairs[0][1]),
                    reversed_context=item.reversed_context,
                )
            if plan.top is not None:
                asked_scores, asked = scored.blanks[plan.top[0]], chunk.blank_queries[plan.top[0]].options
                ranks = {w: asked_scores.ranks[asked.index(w)] for w in plan.top[1]} if asked_scores.ranks else {}
                if not ranks or all(r is None for r in ranks.values()):
                    fields["top_k_status"] = "no_top_k"
                else:
                    fields.update(top=list(asked_scores.top), expected_ranks=ranks)
                    top_k = {
                        f"top{k}": float(any(r is not None and r <= k for r in ranks.values()))
                        for k in sorted(set(options.top_k))
                    }
        return ItemScore(
            logprobs=scores,
            probabilities=_softmax(scores) if scores else [],
            predicted=predicted,
            correct=correct,
            tie=tie,
            top_k=top_k,
            sensitive=sensitive,
            sensitive_margin=sensitive_margin,
            dropped=None,
            **fields,
            **common,
        )

    def metrics(self) -> dict[str, Callable[[ItemScore], float | None]]:
        """Metric name -> an item's outcome for it (None: not judged)."""
        out: dict[str, Callable[[ItemScore], float | None]] = {"mc_accuracy": lambda row: row.correct}
        for k in sorted(set(self.options.top_k)):
            out[f"top{k}"] = _top_k_outcome(f"top{k}")
        out["sensitivity"] = lambda row: row.sensitive
        out[f"sensitivity@{self.options.margin:g}"] = lambda row: row.sensitive_margin
        return out

    def summarize(self, rows: Sequence[ItemScore]) -> ProbeSummary:
        """Every metric per suite (group, control), phenomenon and overall (:func:`summarize_probes`)."""
        return summarize_probes(rows, self.metrics())

    def settings(self) -> dict[str, Any]:
        """The options (the method resolved), in the order results.json has always had them."""
        o = self.options
        return {
            "probe_method": self.method,
            "top_k": sorted(set(o.top_k)),
            "margin": o.margin,
            "limit": o.limit,
            "tie_policy": o.tie,
        }

    # -- results read back ------------------------------------------------------------------------
    @classmethod
    def report_table(
        cls, results: Sequence[ModelResult], metric: str | None
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
    def report_figures(
        cls, results: Sequence[ModelResult], folder: str | Path, human: dict[str, float] | None, metric: str | None
    ) -> list[Path]:
        """Bars by phenomenon and by suite (multiple choice: with chance and majority-answer baselines),
        and the correlation of suite accuracies, of one metric."""
        from blimpgen.evaluate.reporting.probe_figures import draw_probe_figures

        return draw_probe_figures(results, folder, human, metric or "mc_accuracy")


def _top_k_outcome(key: str) -> Callable[[ItemScore], float | None]:
    """An item's outcome for the metric ``key`` (``top5``)."""
    return lambda row: row.top_k[key]
