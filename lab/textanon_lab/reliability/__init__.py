"""Reliability suite: bad inputs and injected faults run through the ``anonymize`` command line.

* :mod:`.pii` — seeded synthetic people and direct identifiers of every common kind, in court-like sentences.
* :mod:`.inputs` — the input files of each case (empty, invalid UTF-8, BOM, huge token, ...).
* :mod:`.pipelines` — faulty pipeline folders assembled from the normal one (failing LM, solver timeout, ...).
* :mod:`.checks` — what is measured on a run: records in/out, order, PII in logs, surviving identifiers.
* :mod:`.suite` — runs every case in a subprocess and writes ``metrics/reliability.json`` / ``.md``.
"""
