"""Running a pipeline over a corpus: the runner (one output or error record per input record, in input order, fail
closed per document), long documents in pieces, Ray (:mod:`textanon.run.scale`) and the side outputs of ``anonymize``
(review report, mapping)."""
