"""Agreement statistics, as in BLiMP's human validation.

* A pair *agrees* when a strict majority of its judgments picks the acceptable sentence
  (a tie does not agree).
* **Aggregate agreement** (BLiMP's headline 96.4 %) is the share of pairs that agree.
* **Individual agreement** is the share of single judgments that pick the acceptable sentence.
* A paradigm **passes** when at least ``pass_fraction`` of its pairs agree (4 of 5 by default).
  Pairs no included worker judged count as not agreeing, so missing data never helps a paradigm.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from blimpgen.validate.design import Hit


@dataclass(frozen=True)
class Judgment:
    """One worker's answer to one real pair."""

    worker_id: str
    uid: str
    pair_id: str
    chose_good: bool


@dataclass(frozen=True)
class PairAgreement:
    """Votes on one pair."""

    uid: str
    pair_id: str
    linguistics_term: str
    field: str
    sentence_good: str
    sentence_bad: str
    n_judgments: int
    n_good: int

    @property
    def majority_good(self) -> bool:
        """Whether a strict majority chose the acceptable sentence."""
        return 2 * self.n_good > self.n_judgments

    @property
    def proportion_good(self) -> float | None:
        """Share of judgments for the acceptable sentence (``None`` without judgments)."""
        return self.n_good / self.n_judgments if self.n_judgments else None


@dataclass(frozen=True)
class ParadigmAgreement:
    """Agreement over one paradigm's pairs."""

    uid: str
    linguistics_term: str
    field: str
    n_pairs: int
    n_majority: int
    n_judgments: int
    n_good: int
    min_judgments: int
    passed: bool

    @property
    def human_accuracy(self) -> float:
        """Aggregate agreement: share of pairs whose majority chose the acceptable sentence."""
        return self.n_majority / self.n_pairs if self.n_pairs else 0.0

    @property
    def individual_accuracy(self) -> float | None:
        """Share of single judgments for the acceptable sentence."""
        return self.n_good / self.n_judgments if self.n_judgments else None


@dataclass(frozen=True)
class Overall:
    """Batch-wide agreement."""

    n_pairs: int
    n_majority: int
    n_judgments: int
    n_good: int
    n_paradigms: int
    n_passed: int

    @property
    def aggregate(self) -> float:
        """Share of pairs with a majority for the acceptable sentence."""
        return self.n_majority / self.n_pairs if self.n_pairs else 0.0

    @property
    def individual(self) -> float | None:
        """Share of judgments for the acceptable sentence."""
        return self.n_good / self.n_judgments if self.n_judgments else None


def pair_agreement(hits: Iterable[Hit], judgments: Iterable[Judgment]) -> list[PairAgreement]:
    """Count votes for every real pair of the batch (pairs without votes included, at zero).

    Args:
        hits: the batch's HITs; their ``real`` items define the pairs.
        judgments: answers from included assignments.

    Returns:
        One entry per pair, sorted by UID then pair id.
    """
    counts: dict[tuple[str, str], list[int]] = {}
    for judgment in judgments:
        tally = counts.setdefault((judgment.uid, judgment.pair_id), [0, 0])
        tally[0] += 1
        tally[1] += judgment.chose_good
    pairs: dict[tuple[str, str], PairAgreement] = {}
    for hit in hits:
        for item in hit.items:
            key = (item.uid, item.pair_id)
            if item.kind != "real" or key in pairs:
                continue
            n, good = counts.get(key, (0, 0))
            pairs[key] = PairAgreement(
                item.uid,
                item.pair_id,
                item.linguistics_term,
                item.field,
                item.sentence_good,
                item.sentence_bad,
                n,
                good,
            )
    return [pairs[key] for key in sorted(pairs)]


def paradigm_agreement(pairs: Sequence[PairAgreement], pass_fraction: Fraction) -> list[ParadigmAgreement]:
    """Summarise pairs per paradigm and decide pass/fail.

    Args:
        pairs: from :func:`pair_agreement`.
        pass_fraction: the share of agreeing pairs needed to pass (exact, e.g. ``Fraction(4, 5)``).

    Returns:
        One entry per UID, sorted.
    """
    by_uid: dict[str, list[PairAgreement]] = {}
    for pair in pairs:
        by_uid.setdefault(pair.uid, []).append(pair)
    out = []
    for uid in sorted(by_uid):
        members = by_uid[uid]
        majority = sum(p.majority_good for p in members)
        out.append(
            ParadigmAgreement(
                uid=uid,
                linguistics_term=members[0].linguistics_term,
                field=members[0].field,
                n_pairs=len(members),
                n_majority=majority,
                n_judgments=sum(p.n_judgments for p in members),
                n_good=sum(p.n_good for p in members),
                min_judgments=min(p.n_judgments for p in members),
                passed=majority * pass_fraction.denominator >= pass_fraction.numerator * len(members),
            )
        )
    return out


def overall_agreement(paradigms: Sequence[ParadigmAgreement]) -> Overall:
    """Batch-wide counts from the per-paradigm ones."""
    return Overall(
        n_pairs=sum(p.n_pairs for p in paradigms),
        n_majority=sum(p.n_majority for p in paradigms),
        n_judgments=sum(p.n_judgments for p in paradigms),
        n_good=sum(p.n_good for p in paradigms),
        n_paradigms=len(paradigms),
        n_passed=sum(p.passed for p in paradigms),
    )


def parse_fraction(text: str) -> Fraction:
    """Read ``"4/5"`` or ``"0.8"`` as an exact fraction in (0, 1].

    Raises:
        ValueError: when ``text`` is not such a number.
    """
    value = Fraction(text.strip())
    if not 0 < value <= 1:
        raise ValueError(f"{text!r} is not in (0, 1]")
    return value
