"""A canned chat model for the LLM anonymizer, registered in spacy-llm's registry as ``textanon.test.Canned.v1``
(:data:`CANNED_LLM`): the component runs end to end (prompting, parsing, matching, rendering) without a real LLM."""

from typing import Iterable

from spacy_llm.registry import registry

CANNED_LLM = "textanon.test.Canned.v1"
#: the fictional text the default reply was written for: 4 of its 5 strings occur in it ("Paris" does not)
CANNED_TEXT = (
    "Ada Quint (born 3 March 1961 in Cork) is an Irish marine engineer. "
    "Quint designed the tidal turbine Selkie. In 1999 Quint married the poet Rob Hale."
)
#: prompts answered so far by every canned model (tests reset it)
CALLS = {"n": 0}


@registry.llm_models(CANNED_LLM)
def canned_model(reply: str = '["Ada Quint", "Quint", "Cork", "1961", "Paris"]', fail: bool = False):
    """Answers every prompt with ``reply``; with ``fail`` it raises a ``TimeoutError`` whose message quotes the
    prompt (a warning built from it would leak document text)."""

    def model(prompts: Iterable[Iterable[str]]) -> Iterable[Iterable[str]]:
        for doc_prompts in prompts:
            replies = []
            for _prompt in doc_prompts:
                CALLS["n"] += 1
                if fail:
                    raise TimeoutError("model timed out on: " + _prompt[:40])
                replies.append(reply)
            yield replies

    return model
