"""HIT properties: fees, suggested reward, qualifications."""

from __future__ import annotations

from decimal import Decimal

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.validate.properties import HitProperties, estimate_cost, fee_per_assignment, suggest_reward


@pytest.mark.parametrize(
    ("reward", "assignments", "fee"),
    [("0.50", 7, "0.10"), ("0.03", 9, "0.01"), ("1.00", 9, "0.20"), ("1.00", 10, "0.40"), ("0.62", 7, "0.12")],
)
def test_properties_fee(reward: str, assignments: int, fee: str) -> None:
    assert fee_per_assignment(Decimal(reward), assignments) == Decimal(fee)


def test_properties_cost_estimate() -> None:
    cost = estimate_cost(Decimal("0.60"), n_hits=10, assignments_per_hit=7)
    assert cost["assignments"] == 70
    assert cost["rewards"] == "42.00" and cost["fees"] == "8.40" and cost["total"] == "50.40"


def test_properties_suggested_reward_pays_the_wage() -> None:
    assert suggest_reward(11, Decimal("15")) == Decimal("0.62")  # (60 + 88) s at $15/h, rounded up
    assert HitProperties().with_reward(11).reward == Decimal("0.62")
    assert HitProperties(reward=Decimal("1.10")).with_reward(11).reward == Decimal("1.10")


@pytest.mark.parametrize("reward", ["0.001", "0", "-1"])
def test_properties_bad_reward(reward: str) -> None:
    with pytest.raises(BlimpgenError, match="reward must be"):
        HitProperties(reward=Decimal(reward))


def test_properties_qualifications() -> None:
    requirements = HitProperties(locales=("US", "CA"), min_approval_rate=97, min_approved_hits=500)
    found = {r["QualificationTypeId"]: r for r in requirements.qualification_requirements()}
    assert found["00000000000000000071"]["LocaleValues"] == [{"Country": "US"}, {"Country": "CA"}]
    assert found["000000000000000000L0"]["IntegerValues"] == [97]
    assert found["00000000000000000040"]["IntegerValues"] == [500]
    assert HitProperties(locales=(), min_approval_rate=0, min_approved_hits=0).qualification_requirements() == []
