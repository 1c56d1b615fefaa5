"""The records every part exchanges: minimal pairs and probe items, with shared provenance.

Generators write them, ``evaluate``, ``validate`` and ``export`` read them; none of those
consumers needs the sampling engine. :mod:`blimpgen.records.types` is where raw data says which
record type it is.
"""

from blimpgen.records.item import BLANK, CONTROLS, ITEM_TYPES, ProbeItem
from blimpgen.records.jsonl import (
    dumps_record,
    file_holds_items,
    read_items,
    read_pairs,
    read_records,
    write_records,
    write_records_file,
)
from blimpgen.records.pair import MinimalPair
from blimpgen.records.provenance import Provenance
from blimpgen.records.types import Record, record_type

__all__ = [
    "BLANK",
    "CONTROLS",
    "ITEM_TYPES",
    "MinimalPair",
    "ProbeItem",
    "Provenance",
    "Record",
    "dumps_record",
    "file_holds_items",
    "read_items",
    "read_pairs",
    "read_records",
    "record_type",
    "write_records",
    "write_records_file",
]
