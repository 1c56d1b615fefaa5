"""Fixtures for the CLI tests that score: the evaluate tests' BLiMP data and warning filters."""

from tests.evaluate.conftest import _narrow_warning_filters, blimp_data  # noqa: F401  (fixtures, used by name)
