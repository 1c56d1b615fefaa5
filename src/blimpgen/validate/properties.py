"""HIT properties for MTurk (title, reward, qualifications, durations) and the cost estimate.

Money is :class:`~decimal.Decimal` in US dollars. The fee follows MTurk's published pricing:
20 % of the reward, at least $0.01 per assignment, plus another 20 % for HITs with 10 or more
assignments, which blimpgen's designs avoid (see :mod:`blimpgen.validate.design`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from typing import Any

from blimpgen.errors import OptionError

CENT = Decimal("0.01")
FEE_RATE = Decimal("0.20")
LARGE_HIT_FEE_RATE = Decimal("0.20")
LARGE_HIT_ASSIGNMENTS = 10
MIN_FEE = Decimal("0.01")
# MTurk's system qualification type ids (the same on the sandbox).
LOCALE_QUALIFICATION = "00000000000000000071"
APPROVAL_RATE_QUALIFICATION = "000000000000000000L0"
APPROVED_HITS_QUALIFICATION = "00000000000000000040"


@dataclass(frozen=True)
class HitProperties:
    """How the HITs are described and paid on MTurk.

    Args:
        reward: pay per assignment in dollars; ``None`` derives it from ``hourly_wage``.
        hourly_wage: dollars per hour the derived reward aims at (see :func:`suggest_reward`).
        locales: ISO country codes workers must be in (``US`` by default).
        min_approval_rate: lowest lifetime approval percentage.
        min_approved_hits: fewest approved HITs.
        minutes: the estimated time of one assignment; None: 60 s + 8 s per question
            (:func:`estimated_seconds`). It sets the default reward and is shown on the page.
    """

    reward: Decimal | None = None
    hourly_wage: Decimal = Decimal("15.00")
    title: str = "Which sentence sounds more natural? (English, native speakers)"
    description: str = "Read pairs of English sentences and pick the one that sounds more natural."
    keywords: str = "English, language, sentences, grammar, linguistics, survey"
    assignment_duration_seconds: int = 30 * 60
    lifetime_seconds: int = 7 * 24 * 3600
    auto_approval_delay_seconds: int = 3 * 24 * 3600
    locales: tuple[str, ...] = ("US",)
    min_approval_rate: int = 98
    min_approved_hits: int = 1000
    minutes: float | None = None

    def __post_init__(self) -> None:
        for name, value in (("reward", self.reward), ("hourly-wage", self.hourly_wage)):
            if value is not None and (not isinstance(value, Decimal) or not value.is_finite()):
                raise OptionError(f"{name} must be an amount in dollars such as 0.60, got {value}")
        if self.reward is not None:
            if self.reward < CENT:
                raise OptionError(f"reward must be at least $0.01, got {self.reward}")
            if self.reward != self.reward.quantize(CENT):
                raise OptionError(f"reward must be whole cents, got {self.reward}")
        if self.hourly_wage <= 0:
            raise OptionError(f"hourly-wage must be positive, got {self.hourly_wage}")
        if not 0 <= self.min_approval_rate <= 100:
            raise OptionError(f"min-approval-rate is a percentage (0-100), got {self.min_approval_rate}")
        if self.minutes is not None and not 0 < self.minutes <= self.assignment_duration_seconds / 60:
            raise OptionError(
                f"minutes must be positive and within the assignment duration "
                f"({self.assignment_duration_seconds // 60} minutes), got {self.minutes}"
            )

    def seconds(self, n_items: int) -> float:
        """The estimated time of one assignment of ``n_items`` questions, in seconds."""
        return 60 * self.minutes if self.minutes is not None else estimated_seconds(n_items)

    def with_reward(self, n_items: int) -> HitProperties:
        """These properties with ``reward`` filled in from ``hourly_wage`` when it is unset."""
        if self.reward is not None:
            return self
        return replace(self, reward=suggest_reward(n_items, self.hourly_wage, seconds=self.seconds(n_items)))

    def qualification_requirements(self) -> list[dict[str, Any]]:
        """The ``QualificationRequirements`` list, in boto3's ``create_hit_type`` shape."""
        requirements: list[dict[str, Any]] = []
        if self.locales:
            requirements.append(
                {
                    "QualificationTypeId": LOCALE_QUALIFICATION,
                    "Comparator": "In",
                    "LocaleValues": [{"Country": code} for code in self.locales],
                }
            )
        if self.min_approval_rate:
            requirements.append(
                {
                    "QualificationTypeId": APPROVAL_RATE_QUALIFICATION,
                    "Comparator": "GreaterThanOrEqualTo",
                    "IntegerValues": [self.min_approval_rate],
                }
            )
        if self.min_approved_hits:
            requirements.append(
                {
                    "QualificationTypeId": APPROVED_HITS_QUALIFICATION,
                    "Comparator": "GreaterThanOrEqualTo",
                    "IntegerValues": [self.min_approved_hits],
                }
            )
        return requirements


def estimated_seconds(n_items: int, seconds_per_item: float = 8.0, overhead_seconds: float = 60.0) -> float:
    """The expected time of one assignment: reading the page and the practice item, then each question.

    Args:
        n_items: questions per HIT.
        seconds_per_item: expected time per question.
        overhead_seconds: reading instructions, consent and the practice item.
    """
    return overhead_seconds + seconds_per_item * n_items


def suggest_reward(
    n_items: int,
    hourly_wage: Decimal,
    seconds_per_item: float = 8.0,
    overhead_seconds: float = 60.0,
    seconds: float | None = None,
) -> Decimal:
    """A reward that pays ``hourly_wage`` for the expected time, rounded up to the cent.

    Args:
        n_items: questions per HIT.
        hourly_wage: dollars per hour to aim for.
        seconds_per_item: expected time per question.
        overhead_seconds: reading instructions and the practice item.
        seconds: the expected time, when known otherwise (replaces the two above).
    """
    expected = seconds if seconds is not None else estimated_seconds(n_items, seconds_per_item, overhead_seconds)
    return max(CENT, (hourly_wage * Decimal(str(expected)) / 3600).quantize(CENT, rounding=ROUND_CEILING))


def fee_per_assignment(reward: Decimal, assignments_per_hit: int) -> Decimal:
    """MTurk's commission on one assignment of a HIT."""
    rate = FEE_RATE + (LARGE_HIT_FEE_RATE if assignments_per_hit >= LARGE_HIT_ASSIGNMENTS else 0)
    return max(MIN_FEE, (reward * rate).quantize(CENT, rounding=ROUND_HALF_UP))


def estimate_cost(reward: Decimal, n_hits: int, assignments_per_hit: int) -> dict[str, Any]:
    """Rewards, fees and total for posting ``n_hits`` HITs, as JSON-ready strings.

    Returns:
        ``{"assignments", "rewards", "fee_rate", "fees", "total"}``; ``total`` is what the
        prepaid balance must cover (bonuses not included).
    """
    assignments = n_hits * assignments_per_hit
    fee = fee_per_assignment(reward, assignments_per_hit)
    rewards = reward * assignments
    fees = fee * assignments
    rate = FEE_RATE + (LARGE_HIT_FEE_RATE if assignments_per_hit >= LARGE_HIT_ASSIGNMENTS else 0)
    return {
        "assignments": assignments,
        "reward_per_assignment": str(reward),
        "rewards": str(rewards),
        "fee_rate": str(rate),
        "fee_per_assignment": str(fee),
        "fees": str(fees),
        "total": str(rewards + fees),
        "currency": "USD",
    }
