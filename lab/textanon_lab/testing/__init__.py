"""Test-only plugins: fault-injecting components and models for the reliability suite.

Nothing here is imported by the pipeline itself, and no entry point registers these plugins: an install of the
wheel never offers a fault component to a user's config. They exist only where :mod:`textanon_lab.testing.faults` is
imported: by the test suite (``tests/conftest.py``) and by ``python -m textanon_lab.testing``, which runs the ordinary
``textanon`` command line with them imported and logging at DEBUG level (the reliability suite's subprocesses;
worker processes are forked from it and inherit them).
"""
