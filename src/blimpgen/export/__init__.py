"""Export generated pairs for sharing: Hugging Face datasets and lm-evaluation-harness tasks.

Modules (import them directly; nothing here is imported eagerly, so ``blimpgen --help``
never pays for ``datasets`` or ``pyarrow``):

- :mod:`blimpgen.export.hf`: the Hub layout (one parquet config per paradigm + card),
  or ``save_to_disk`` folders; reading an export back into :class:`MinimalPair` records.
- :mod:`blimpgen.export.card`: the dataset card (``README.md`` with the Hub's YAML header).
- :mod:`blimpgen.export.push`: upload an export with ``huggingface_hub``.
- :mod:`blimpgen.export.lm_eval`: lm-evaluation-harness task and group files.
"""
