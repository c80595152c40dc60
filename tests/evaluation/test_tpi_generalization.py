"""TPI of generalized output: a replacement gives back its own information, never more than the original's."""

import pytest
from fake_models import LengthLM

from textanon.risk.language_models.word_ic import WordFrequencyModel
from textanon_eval.tpi import InformationContent, generalization_credit, is_role_word, tpi_corpus, tpi_document

TEXT = "Ion Rusu, a veterinary surgeon, moved to Chisinau in 1997 and opened a clinic."
START = TEXT.index("Chisinau")


@pytest.mark.parametrize("model", [WordFrequencyModel(), LengthLM()], ids=["context-free", "in context"])
def test_a_generalization_keeps_its_replacements_information_up_to_the_originals(model):
    ic = InformationContent(model)
    dic = ic.document_ic(TEXT)
    region = (START, START + len("Chisinau"))
    suppressed = tpi_document(dic, [region])
    credit = generalization_credit(ic, TEXT, [[*region, "a city in Moldova"]], dic)
    original = float(dic.ic[[i for i, t in enumerate(dic.terms) if t.start < region[1] and region[0] < t.end]].sum())
    assert 0 < credit <= original
    assert suppressed < tpi_document(dic, [region], credit=credit) <= 1.0
    assert generalization_credit(ic, TEXT, [[*region, "***"]], dic) == 0.0  # suppression keeps nothing
    assert generalization_credit(ic, TEXT, [[*region, ""]], dic) == 0.0


def test_corpus_credits_only_the_methods_declared_as_generalizations():
    ic = InformationContent(WordFrequencyModel())
    region = [START, START + len("Chisinau")]
    masks = {"generalized": {"d": [region]}, "labelled": {"d": [region]}}
    reps = {"generalized": {"d": [[*region, "a city in Moldova"]]}}
    result = tpi_corpus(ic, {"d": TEXT}, masks, progress=False, generalizations=reps).mean()
    assert result["generalized"] > result["labelled"]


@pytest.mark.parametrize("model", [WordFrequencyModel(), LengthLM()], ids=["context-free", "in context"])
def test_a_role_word_for_a_person_keeps_nothing(model):
    """ "the person" / "another person" are written whoever was named: they count as masked, not as kept."""
    ic = InformationContent(model)
    dic = ic.document_ic(TEXT)
    name = [0, len("Ion Rusu")]
    assert generalization_credit(ic, TEXT, [[*name, "a person from Moldova"]], dic) > 0
    for role in ("the person", "another person", "Another person's", "The Person"):
        assert is_role_word(role)
        assert generalization_credit(ic, TEXT, [[*name, role]], dic) == 0.0
    assert not is_role_word("a city in Moldova") and not is_role_word("a personal trainer")
