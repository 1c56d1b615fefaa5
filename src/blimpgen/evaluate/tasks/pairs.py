"""Minimal pairs (BLiMP): the good sentence must score higher than the bad one.

A pair becomes two queries by BLiMP's method (:mod:`blimpgen.evaluate.scoring.methods`), each
scored by the scorer and reduced to one number (:mod:`blimpgen.evaluate.scoring.reductions`);
the pair is judged by the tie policy and written as a :class:`PairScore` (``pairs.jsonl``).
Paradigms whose flag says the method does not apply are skipped and listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import model_validator

from blimpgen.errors import DataError, OptionError
from blimpgen.evaluate.metrics import judge
from blimpgen.evaluate.options import option_field
from blimpgen.evaluate.rows import column
from blimpgen.evaluate.scoring.base import Query, QueryError, Scorer, TokenScores
from blimpgen.evaluate.scoring.methods import Method, check_method, make_queries, method_applies
from blimpgen.evaluate.scoring.reductions import Reduction, check_reduction, reduce_scores
from blimpgen.evaluate.scoring.registrations import scorer_id
from blimpgen.evaluate.scoring.scorers.unigram import UnigramModel, read_corpus_lines
from blimpgen.evaluate.tasks.base import EvalTask, Located, ModelResult, Selection, TaskOptions, model_label
from blimpgen.evaluate.tasks.pair_summary import PairSummary, summarize_pairs
from blimpgen.records.pair import MinimalPair


class PairOptions(TaskOptions):
    """How pairs are compared; every field is written into every result file.

    Args:
        method: ``full-sentence``, ``one-prefix`` or ``two-prefix`` (BLiMP section 6.4).
        reduction: ``sum`` (BLiMP), ``mean`` or ``slor``.
        unigram_corpus: plain-text corpus of SLOR's unigram model (counted in the scorer's tokens).
        save_tokens: also write each token and its log-probability to ``pairs.jsonl``.
        tie, limit: see :class:`~blimpgen.evaluate.tasks.base.TaskOptions` (limit: pairs per paradigm).
    """

    method: Method = option_field("full-sentence", "--method", label="method")
    reduction: Reduction = option_field("sum", "--reduction", label="reduction")
    unigram_corpus: str | None = option_field(None, "--slor-corpus")
    save_tokens: bool = option_field(False, "--save-tokens")

    @model_validator(mode="after")
    def _slor_has_a_corpus(self) -> PairOptions:
        if self.reduction == "slor" and not self.unigram_corpus:
            raise ValueError("reduction 'slor' needs a unigram model: pass --slor-corpus FILE")
        return self


@dataclass(frozen=True)
class PairScore:
    """One scored pair, a line of ``pairs.jsonl``."""

    pair_id: str
    UID: str
    phenomenon: str
    field: str
    sentence_good: str
    sentence_bad: str
    score_good: float
    score_bad: float
    logprob_good: float
    logprob_bad: float
    tokens_good: int
    tokens_bad: int
    correct: float
    tie: bool
    model: str | None
    scorer: str
    method: str
    reduction: str
    tie_policy: str
    first_token: str | None
    token_scores_good: list[tuple[str, float]] | None = column(default=None, omit_none=True)
    token_scores_bad: list[tuple[str, float]] | None = column(default=None, omit_none=True)

    @property
    def record_id(self) -> str:
        """The pair's id, for messages."""
        return self.pair_id


@dataclass(frozen=True)
class PairPlan:
    """A chunk of pairs and their (good, bad) queries."""

    pairs: Sequence[Located]
    queries: list[tuple[Query, Query]]

    def __len__(self) -> int:
        return len(self.pairs)


class PairTask(EvalTask[PairPlan]):
    """Score minimal pairs; see the module docstring."""

    record_type = MinimalPair
    options_type = PairOptions
    noun = "pair"
    result_noun = "pair results"
    records_file = "pairs.jsonl"
    groups_key = "paradigms"
    chunk = 8192  # large enough for good length sorting
    tie_sides = "good and bad"
    tie_note = "; a bag-of-words scorer such as unigram ties every pair whose sentences have the same words"
    options: PairOptions

    def select(self, records: Sequence[Located]) -> Selection:
        """Keep the pairs the method applies to (at most ``limit`` per paradigm); list skipped paradigms.

        Raises:
            OptionError: when no paradigm supports the method.
            DataError: for a pair id that repeats anywhere in the data (a pair counted twice).
        """
        method, limit = self.options.method, self.options.limit
        flag = check_method(method)
        first: dict[str, str] = {}
        for pair, where in records:
            if pair.pair_id or pair.pairID:  # without either (hand-written data) a pair has no id to compare
                if pair.record_id in first:
                    raise DataError(
                        f"{where}: pair {pair.record_id!r} repeats (first in {first[pair.record_id]}); "
                        "pair ids must be unique across --data, or the pair would count twice"
                    )
                first[pair.record_id] = str(where)
        kept: list[Located] = []
        skipped: set[str] = set()
        seen: dict[str, int] = {}  # UID -> pairs kept so far
        for pair, where in records:
            if not method_applies(pair, method):
                skipped.add(pair.UID)
                continue
            seen[pair.UID] = seen.get(pair.UID, 0) + 1
            if limit is None or seen[pair.UID] <= limit:
                kept.append((pair, where))
        if not kept:
            uids = sorted({p.UID for p, _ in records})
            raise OptionError(
                f"--method {method}: none of the {len(uids)} paradigms in the data supports it "
                f"({flag} is false everywhere); use --method full-sentence"
            )
        skipped -= {p.UID for p, _ in kept}
        return Selection(kept, tuple(sorted(skipped)))

    def prepare(self, scorer: Scorer) -> None:
        """SLOR's unigram model over the scorer's tokens, and the stamp every row carries.

        Raises:
            DataError: when the SLOR corpus cannot be read.
            OptionError: for a reduction that cannot run.
        """
        self.unigram = None
        if self.options.reduction == "slor":
            self.unigram = UnigramModel.train(read_corpus_lines(self.options.unigram_corpus or ""), scorer.tokenize)
        check_reduction(self.options.reduction, self.unigram)
        settings = scorer.options()
        self.stamp = {
            "model": model_label(settings),
            "scorer": scorer_id(scorer),
            "method": self.options.method,
            "reduction": self.options.reduction,
            "tie_policy": self.options.tie,
            "first_token": settings.get("first_token"),
        }

    def plan(self, scorer: Scorer, chunk: Sequence[Located]) -> PairPlan:
        """The (good, bad) queries of each pair.

        Raises:
            DataError: naming the pair when a field the method needs is missing.
        """
        return PairPlan(chunk, [make_queries(pair, self.options.method, str(where)) for pair, where in chunk])

    def score(self, scorer: Scorer, plan: PairPlan) -> list[PairScore]:
        """Score, reduce and judge each pair of the chunk.

        Raises:
            DataError: ``file:line: pair ID: sentence_good ...`` for a text the scorer refuses
                (e.g. longer than the model's context) or one of 0 tokens.
        """
        options, rows = self.options, []
        for (pair, _), (good, bad) in zip(plan.pairs, self._scored(scorer, plan)):
            score_good = reduce_scores(good, options.reduction, self.unigram)
            score_bad = reduce_scores(bad, options.reduction, self.unigram)
            tokens_good = list(zip(good.tokens, good.logprobs)) if options.save_tokens else None
            tokens_bad = list(zip(bad.tokens, bad.logprobs)) if options.save_tokens else None
            rows.append(
                PairScore(
                    pair.pair_id or f"{pair.UID}-{pair.pairID}",
                    pair.UID,
                    pair.linguistics_term or pair.UID,
                    pair.field,
                    pair.sentence_good,
                    pair.sentence_bad,
                    score_good,
                    score_bad,
                    good.total,
                    bad.total,
                    len(good),
                    len(bad),
                    judge(score_good, score_bad, options.tie),
                    score_good == score_bad,
                    **self.stamp,
                    token_scores_good=tokens_good,
                    token_scores_bad=tokens_bad,
                )
            )
        return rows

    def _scored(self, scorer: Scorer, plan: PairPlan) -> list[tuple[TokenScores, TokenScores]]:
        def name(index: int) -> str:
            pair, where = plan.pairs[index]
            return f"{where}: pair {pair.pair_id or f'{pair.UID}-{pair.pairID}'}"

        try:
            scored = scorer.score_pairs(plan.queries)
        except QueryError as exc:
            raise DataError(f"{name(exc.index // 2)}: {self._side(bool(exc.index % 2))} {exc.problem}") from None
        for index, (good, bad) in enumerate(scored):
            for is_bad, scores in ((False, good), (True, bad)):
                if not len(scores):
                    text = plan.queries[index][is_bad].text
                    raise DataError(
                        f"{name(index)}: {self._side(is_bad)} {text[:60]!r} is 0 tokens for scorer "
                        f"{scorer.name!r}, so it has no score; fix the sentence, or check the model's "
                        "tokenizer"
                    )
        return scored

    def _side(self, bad: bool) -> str:
        if self.options.method == "full-sentence":
            return "sentence_bad" if bad else "sentence_good"
        return f"the {'bad' if bad else 'good'} {self.options.method} continuation"

    def summarize(self, rows: Sequence[PairScore]) -> PairSummary:
        """Accuracy per paradigm, phenomenon and overall (:func:`summarize_pairs`)."""
        return summarize_pairs(rows)

    def settings(self) -> dict[str, Any]:
        """The options, in the order results.json has always had them."""
        o = self.options
        return {
            "method": o.method,
            "reduction": o.reduction,
            "unigram_corpus": o.unigram_corpus,
            "limit": o.limit,
            "save_tokens": o.save_tokens,
            "tie_policy": o.tie,
        }

    def selection_settings(self, selection: Selection) -> dict[str, Any]:
        """The paradigms the method does not apply to."""
        return {"skipped_paradigms": list(selection.skipped)}

    # -- results read back ------------------------------------------------------------------------
    @classmethod
    def report_table(
        cls, results: Sequence[ModelResult], metric: str | None
    ) -> tuple[list[ModelResult], list[str], list[list[Any]], str]:
        """Models x phenomena, overall last.

        Raises:
            OptionError: for ``metric``: pair results have one metric, accuracy.
        """
        from blimpgen.evaluate.reporting.tables import model_table

        if metric is not None:
            raise OptionError("--metric applies to probe results; these folders hold minimal-pair results")
        header, rows = model_table(results, "phenomenon", "phenomena")
        return list(results), header, rows, ""

    @classmethod
    def report_figures(
        cls, results: Sequence[ModelResult], folder: str | Path, human: dict[str, float] | None, metric: str | None
    ) -> list[Path]:
        """Accuracy by phenomenon, the paradigm correlation, and accuracy by length, perplexity and confidence."""
        from blimpgen.evaluate.reporting.figures import draw_figures

        return draw_figures(results, folder, human)
