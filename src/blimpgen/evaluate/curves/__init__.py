"""The oLMpics learning curve: :mod:`.protocol` (sizes, WS/MAX, the curve model), :mod:`.head`
(head-only training) and :mod:`.runner` (reading items, running, writing ``curve.json``)."""
