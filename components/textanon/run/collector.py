"""The garbage collector after a pipeline is loaded.

A loaded pipeline and the libraries it imports (spaCy, thinc, PyTorch, the language model's tokenizer...) leave
about half a million objects that Python's cyclic garbage collector tracks. They live as long as the process, yet
every full collection walks all of them again. On court cases the fast profile spends about a tenth of its time
there (``bench-speed``). :func:`settle` collects once and moves what is left into the permanent generation
(:func:`gc.freeze`), so later collections look only at what the documents create. It changes no output.

The command line (:func:`textanon.run.job.prepare_pipeline`) calls it after loading; a long-running application
that loads ``en_textanon`` with ``spacy.load`` can call it too (README, "Speed"). The speed benchmarks call it for
every system they time, Presidio included.
"""

import gc


def settle() -> None:
    """Collect what loading left behind, then freeze what is still alive (:func:`gc.freeze`): later collections
    skip it. Call it once, after the pipeline is loaded and before the documents."""
    gc.collect()
    gc.freeze()
