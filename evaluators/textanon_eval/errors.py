"""The error of every evaluator: bad evaluation input."""

from textanon.io.datasets.base import DatasetError

#: Bad evaluation input (empty document, unknown record id, ...); the message names the record. The same type as
#: the readers' errors (:class:`textanon.io.datasets.base.DatasetError`), so that one ``except`` covers a bad file
#: and a bad record.
EvaluationError = DatasetError

__all__ = ["EvaluationError"]
