"""``LocalChatModel`` reports why generation stopped (``LLMReply.finish_reason``), so that a reply cut by
``max_new_tokens`` is never taken for the model's complete answer. A scripted tokenizer/model pair stands
in for the real weights (the real SmolLM2 is exercised in test_local_model.py); the stopping criteria
are textanon's own, called after every token as transformers' ``generate`` does."""

from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from textanon.llm.local_model import LocalChatModel  # noqa: E402

EOS, OPEN = 0, 9
PIECES = {EOS: "", 1: '"Ada"', 2: ", ", 3: '"Cork"', 4: "]", OPEN: "[", 10: "hello"}


class ScriptedTokenizer:
    chat_template = None
    eos_token_id = EOS
    pad_token_id = EOS

    def __call__(self, text, return_tensors=None, add_special_tokens=True):
        ids = [OPEN] if text == "[" else [10] * (1 + text.count("long"))
        return SimpleNamespace(input_ids=torch.tensor([ids]) if return_tensors else ids)

    def decode(self, ids, skip_special_tokens=True):
        return "".join(PIECES[int(i)] for i in ids if not (skip_special_tokens and int(i) == EOS))


class ScriptedModel:
    """Emits ``script`` token by token (or, given one script per prompt, each its own), stopping like transformers:
    a row is done at EOS or when a criterion says so (it is padded from then on); all stop at max_new_tokens."""

    generation_config = SimpleNamespace(eos_token_id=[EOS])

    def __init__(self, script):
        self.script = script
        self.calls = []

    def generate(self, input_ids, max_new_tokens, stopping_criteria=None, pad_token_id=EOS, attention_mask=None, **kw):
        rows = input_ids.shape[0]
        if isinstance(self.script[0], list):  # one script per prompt, in the order the prompts come
            scripts, self.script = self.script[:rows], self.script[rows:] or self.script
        else:
            scripts = [self.script] * rows
        self.calls.append(rows)
        out, done = input_ids, [False] * rows
        for step in range(max_new_tokens):
            column = [pad_token_id if done[i] or step >= len(scripts[i]) else scripts[i][step] for i in range(rows)]
            out = (
                torch.cat([out, torch.tensor([column])], dim=1)
                if rows == 1
                else torch.cat([out, torch.tensor(column).unsqueeze(1)], dim=1)
            )
            done = [d or c == EOS for d, c in zip(done, column)]
            if stopping_criteria:
                flags = stopping_criteria[0](out, None)
                done = [d or bool(f) for d, f in zip(done, flags)]
            if all(done):
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


def test_prompts_of_several_documents_are_generated_in_batches_and_given_back_per_document():
    model = LocalChatModel("scripted", max_new_tokens=8, batch_size=2)
    scripts = [[1, 2, 3, 4], [1, EOS], [3, 2, 1, 2, 3, 2, 1, 2]]  # complete list; end of sequence; cut by the limit
    model._tokenizer, model._model = ScriptedTokenizer(), ScriptedModel(scripts[:2])
    prompts = ["<<<user>>>\nhello", "<<<user>>>\nhello long"]  # different lengths: the shorter is left-padded
    first = model.generate_batch(prompts)
    assert [(str(r), r.finish_reason) for r in first] == [('["Ada", "Cork"]', "stop"), ('["Ada"', "stop")]
    model._model = ScriptedModel(scripts)
    replies = list(model([[prompts[0]], [prompts[1], "<<<user>>>\nhello"]]))
    assert model._model.calls == [2, 1]  # three prompts, batches of two
    assert [[(str(r), r.finish_reason) for r in doc] for doc in replies] == [
        [('["Ada", "Cork"]', "stop")],
        [('["Ada"', "stop"), ('["Cork", "Ada", "Cork", "Ada", ', "length")],
    ]
    assert model.usage["calls"] == 5 and model.usage["completion_tokens"] == 4 + 2 + 4 + 2 + 8
