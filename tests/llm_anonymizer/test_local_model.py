"""``textanon_llm_anonymizer`` with the REAL offline model (SmolLM2-135M-Instruct, greedy, CPU).

Slow (loads the model: ~15 s from the converted cache, ~30 s the first time) but part of `make test`.
The text is fictional. Asserted: what the model says is parsed, every string it returned that occurs
in the text is masked at every occurrence, strings it made up are counted, and the spans are verbatim.
"""

import re

import pytest
import spacy

from textanon.llm.local_model import LocalChatModel
from textanon.llm.parsing import parse_reply
from textanon.llm.task import STATS_KEY

pytestmark = pytest.mark.slow

TEXT = (
    "Ada Quint (born 14 July 1958 in Cork) is an Irish marine engineer. "
    "Quint designed the tidal turbine Selkie. Cork honoured Ada Quint in 2004."
)


#: greedy SmolLM2 on one thread, at most 40 new tokens; the target is not masked (the model's reply is tested)
SMOLLM2 = {"@llm_models": "textanon.SmolLM2Chat.v1", "max_new_tokens": 40, "num_threads": 1}


def smollm2_pipeline(**settings):
    """A blank pipeline with the LLM anonymizer on :data:`SMOLLM2` and ``settings``."""
    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_llm_anonymizer", config={"mask_target": False, "model": SMOLLM2, **settings})
    return nlp


@pytest.fixture(scope="module")
def nlp():
    pytest.importorskip("torch")
    return smollm2_pipeline(save_io=True)


def _occurs(needle: str, text: str) -> bool:
    return re.search(r"(?<!\w)" + r"\s+".join(map(re.escape, needle.split())) + r"(?!\w)", text, re.I) is not None


def test_real_local_model_masks_every_occurrence_of_what_it_returns(nlp):
    doc = nlp(TEXT)
    component = nlp.get_pipe("textanon_llm_anonymizer")
    assert isinstance(component.model, LocalChatModel)
    assert component.model.usage["calls"] == 1
    assert 0 < component.model.usage["completion_tokens"] <= 40
    (reply,) = doc.user_data["llm_io"]["textanon_llm_anonymizer"]["response"]
    parsed = parse_reply(reply)
    stats = doc.user_data[STATS_KEY]
    assert not doc._.anonymization_warnings, "the model's reply could not be parsed"
    assert parsed.ok and stats["returned"] == len(parsed.strings) > 0
    assert stats["matched"] + stats["hallucinated"] + stats["ignored"] == stats["returned"]
    assert stats["matched"] > 0
    spans = doc.spans["llm_pii"]
    assert spans and all(s._.source == "llm" and TEXT[s.start_char : s.end_char] == s.text for s in spans)
    found = [s for s in parsed.strings if _occurs(s, TEXT)]
    assert found
    for string in found:  # every occurrence of every returned string is masked
        assert not _occurs(string, doc._.anonymized_text), "a returned string survived masking"
    # the masked text is the original with exactly the span ranges replaced
    rebuilt, last = [], 0
    for start, end, repl in doc._.masks:
        rebuilt.append(TEXT[last:start] + repl)
        last = end
    assert "".join(rebuilt) + TEXT[last:] == doc._.anonymized_text


def test_real_local_model_is_deterministic_and_cached(nlp, tmp_path):
    first = nlp(TEXT)._.anonymized_text
    cached = smollm2_pipeline(cache_dir=str(tmp_path))
    model = cached.get_pipe("textanon_llm_anonymizer").model
    assert [d._.anonymized_text for d in cached.pipe([TEXT])] == [first]  # greedy: same reply
    assert model.usage["calls"] == 1
    assert cached(TEXT)._.anonymized_text == first  # served from the spacy-llm cache
    assert model.usage["calls"] == 1


def test_real_local_model_reports_a_cut_at_the_token_limit(nlp):
    component = nlp.get_pipe("textanon_llm_anonymizer")
    model = component.model
    saved, model.max_new_tokens = model.max_new_tokens, 2
    try:
        reply = model.generate(component.task.render(TEXT, None))
    finally:
        model.max_new_tokens = saved
    assert reply.finish_reason == "length"
    doc = component.task.apply_replies(nlp.make_doc(TEXT), [reply])  # what the component does with it
    assert "truncated LLM reply" in doc._.anonymization_warnings[0]
    assert "Cork" not in doc._.anonymized_text and "Quint" not in doc._.anonymized_text
