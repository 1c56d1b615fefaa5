"""Scorer implementations, one model family per module; import them through the registry."""
