"""The error of every evaluator: bad evaluation input."""


class EvaluationError(ValueError):
    """Bad evaluation input (empty document, unknown record id, ...); the message names the record."""
