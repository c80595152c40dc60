"""The matrix products of the pipeline's trained models: NumPy's BLAS instead of thinc's bundled BLIS.

thinc's CPU backend (``NumpyOps``) multiplies matrices with the BLIS build that ships in the ``blis`` wheel. On the
CPUs this project runs on (AMD EPYC with AVX-512, the CI machine and the development VM) that build falls back to a
generic kernel: a 4000 x 288 by 288 x 96 float32 product, the shape of en_core_web_sm's convolution layers, takes
6.6 ms with BLIS and 1.1 ms with NumPy's OpenBLAS (which picks its kernel for the CPU at run time). The two
transition-based entity models of the fast profile (the court NER and en_core_web_sm's ner) spend most of their time
in those products, so the fast profile takes about 13–15 % less time with OpenBLAS (ad hoc, one BLAS thread;
``bench-speed`` runs 198 and 204, docs/profiles.md, decision 9). The results are the same: on the 50 evaluated
abstracts, the 27 echr-dev cases and 50 development documents, every entity and every anonymized text is identical
under the two backends
(``tests/run/test_matmul.py`` checks the entity models' outputs on fixtures).

:func:`use_numpy_matmul` switches a loaded pipeline's models to ``NumpyOps(use_blis=False)``: thinc's own
alternative, which delegates the product to ``numpy.matmul``. It is the ``[nlp] after_pipeline_creation`` callback
of textanon's configs (registered as ``textanon.numpy_matmul.v1``), so ``spacy.load("en_textanon")`` gets it; it
touches only this pipeline's models, never thinc's process-wide current ops, and leaves any other backend alone (a
GPU's ``CupyOps``, Apple's ``AppleOps``). OpenBLAS takes as many threads as the machine has cores unless
``OPENBLAS_NUM_THREADS`` says otherwise; worker processes (``--n-process``) limit theirs to their share of the
cores (:func:`textanon.risk.language_models.threads.set_process_threads`).
"""

from typing import Callable

from spacy.language import Language
from thinc.api import Model, NumpyOps


def use_numpy_matmul(nlp: Language) -> Language:
    """Give every thinc model of ``nlp``'s components (the disabled ones included) ``NumpyOps(use_blis=False)``
    where it has thinc's default ``NumpyOps`` with BLIS; returns ``nlp``."""
    ops = NumpyOps(use_blis=False)
    for _, proc in nlp.components:
        model = getattr(proc, "model", None)
        if not isinstance(model, Model):
            continue
        for node in model.walk():
            if type(node.ops) is NumpyOps and node.ops.use_blis:
                node.ops = ops
    return nlp


def make_numpy_matmul() -> Callable[[Language], Language]:
    """``textanon.numpy_matmul.v1`` (spaCy's ``callbacks`` registry): the ``[nlp.after_pipeline_creation]``
    callback that runs :func:`use_numpy_matmul` on the pipeline being built or loaded."""
    return use_numpy_matmul
