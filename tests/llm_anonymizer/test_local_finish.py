"""``LocalChatModel`` reports why generation stopped (``LLMReply.finish_reason``), so that a reply cut by
``max_new_tokens`` is never taken for the model's complete answer. A scripted tokenizer/model pair stands
in for the real weights (the real SmolLM2 is exercised in test_local_model.py); the stopping criteria
are textanon's own, called after every token as transformers' ``generate`` does."""

from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from textanon.llm_anonymizer.local_model import LocalChatModel  # noqa: E402

EOS, OPEN = 0, 9
PIECES = {EOS: "", 1: '"Ada"', 2: ", ", 3: '"Cork"', 4: "]", OPEN: "[", 10: "hello"}


class ScriptedTokenizer:
    chat_template = None
    eos_token_id = EOS
    pad_token_id = EOS

    def __call__(self, text, return_tensors=None, add_special_tokens=True):
        ids = [OPEN] if text == "[" else [10]
        return SimpleNamespace(input_ids=torch.tensor([ids]))

    def decode(self, ids, skip_special_tokens=True):
        return "".join(PIECES[int(i)] for i in ids if not (skip_special_tokens and int(i) == EOS))


class ScriptedModel:
    """Emits ``script`` token by token, stopping like transformers: EOS, max_new_tokens, or a criterion."""

    generation_config = SimpleNamespace(eos_token_id=[EOS])

    def __init__(self, script):
        self.script = script

    def generate(self, input_ids, max_new_tokens, stopping_criteria=None, **kwargs):
        out = input_ids
        for token in self.script[:max_new_tokens]:
            out = torch.cat([out, torch.tensor([[token]])], dim=1)
            if token == EOS or (stopping_criteria and any(bool(c(out, None)) for c in stopping_criteria)):
                break
        return out


def generate(script, max_new_tokens=8, **settings):
    model = LocalChatModel("scripted", max_new_tokens=max_new_tokens, **settings)
    model._tokenizer, model._model = ScriptedTokenizer(), ScriptedModel(script)
    return model.generate("<<<user>>>\nhello")


@pytest.mark.parametrize(
    "script, max_new_tokens, reply, reason",
    [
        ([1, 2, 3, 4, 1, 1], 8, '["Ada", "Cork"]', "stop"),  # complete JSON list: stopped at its end
        ([1, 2, 3, 2, 1, 2, 3], 3, '["Ada", "Cork"', "length"),  # cut by max_new_tokens
        ([1, 2, 3, 4], 4, '["Ada", "Cork"]', "stop"),  # the list closes on the last allowed token
        ([1, 2, 3, EOS], 8, '["Ada", "Cork"', "stop"),  # end of sequence (the parser sees the unclosed list)
        ([1, 2, 3, 2] + [1, 2, 3, 2] * 4, 40, '["Ada", "Cork", "Ada", "Cork", "Ada", "Cork"', "loop"),
    ],
)
def test_finish_reason(script, max_new_tokens, reply, reason):
    result = generate(script, max_new_tokens=max_new_tokens, stop_after_repeats=4)
    assert (str(result), result.finish_reason) == (reply, reason)


def test_finish_reason_without_stopping_criteria():
    result = generate([1, 2, 3, 4, 1, 2], max_new_tokens=6, stop_at_json_end=False, stop_after_repeats=0)
    assert (str(result), result.finish_reason) == ('["Ada", "Cork"]"Ada", ', "length")


def test_length_cut_reply_makes_the_component_fall_back():
    import spacy

    nlp = spacy.blank("en")
    component = nlp.add_pipe(
        "textanon_llm_anonymizer",
        config={
            "model": {"@llm_models": "textanon.LocalChatModel.v1", "name_or_path": "scripted", "max_new_tokens": 3}
        },
    )
    component.model._tokenizer, component.model._model = ScriptedTokenizer(), ScriptedModel([1, 2, 3, 2, 1])
    doc = nlp("Ada Quint was born in Cork in 1961.")
    assert doc._.anonymized_text == "*** *** was born in *** in ***."
    (warning,) = doc._.anonymization_warnings
    assert "truncated LLM reply" in warning and "Cork" not in warning
