"""Test-only plugins: fault-injecting components and models for the reliability suite.

Nothing here is imported by the pipeline itself. The plugins are registered through entry points
(``pyproject.toml``) and by importing :mod:`textanon.testing.faults`; ``python -m textanon.testing``
runs the ordinary ``textanon`` command line with them imported and logging at DEBUG level.
"""
