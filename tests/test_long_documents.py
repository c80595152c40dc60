"""Long documents: the optimizer's overlap checks, the target search's region margins and ``covered`` answer as the
plain (quadratic) definitions do, on random inputs; they only got faster."""

import random
from types import SimpleNamespace

import pytest
from spacy.lang.en import English

from textanon.detect import target
from textanon.extensions import register_extensions
from textanon.pipes.optimizer import TARGET_ID, MaskingOptimizer, _overlapping
from textanon.render.masking import covered


def overlapping_by_definition(entities, chars):
    return {
        eid
        for eid, mentions in entities.items()
        if any(m.start_char < e and s < m.end_char for m in mentions for s, e in chars)
    }


def reach_by_definition(folded, position, step):
    left = target.REGION_MARGIN
    while left > 0 and (position > 0 if step < 0 else position < len(folded)):
        char = folded[position - 1] if step < 0 else folded[position]
        if not (char.isspace() or char == ","):
            left -= 1
        position += step
    return position


def covered_by_definition(masks, start, end):
    return all(any(m[0] <= i < m[1] for m in masks) for i in range(start, end))


def mention(start, end):
    return SimpleNamespace(start_char=start, end_char=end)


@pytest.mark.parametrize("seed", range(5))
def test_overlapping_entities_are_those_of_the_definition(seed):
    rng = random.Random(seed)
    for _ in range(400):
        entities = {
            f"e{i}": [mention(a, a + rng.randint(0, 5)) for a in rng.sample(range(60), rng.randint(1, 3))]
            for i in range(rng.randint(0, 6))
        }
        chars = [(a, a + rng.randint(0, 6)) for a in (rng.randint(0, 60) for _ in range(rng.randint(0, 5)))]
        assert _overlapping(entities, chars) == overlapping_by_definition(entities, chars)


@pytest.mark.parametrize("seed", range(3))
def test_region_margins_count_the_characters_of_the_definition(seed):
    rng = random.Random(seed)
    alphabet = "ab ,\n\t\u00a0\u2003\x1c"  # non-breaking, em and file-separator spaces are whitespace too
    for _ in range(300):
        n = rng.choice([0, 1, 150, 199, 200, 201, 260, 900, 2500])
        spaces = rng.random()
        text = "".join(rng.choice(alphabet) if rng.random() < spaces else "x" for _ in range(n))
        position = rng.randint(0, n)
        for step in (-1, 1):
            assert target._reach(text, position, step) == reach_by_definition(text, position, step)


def test_covered_is_the_definition():
    rng = random.Random(7)
    for _ in range(500):
        masks, pos = [], 0
        for _ in range(rng.randint(0, 5)):
            start = pos + rng.randint(1, 4)
            pos = start + rng.randint(1, 5)
            masks.append([start, pos, "X"])
        start = rng.randint(0, 30)
        end = start + rng.randint(1, 8)
        assert covered(masks, start, end) == covered_by_definition(masks, start, end)


def test_uncovered_name_occurrences_become_person_spans_and_covered_ones_do_not():
    register_extensions()
    nlp = English()
    doc = nlp("Mr Ion Rusu met Rusu in Balti and Rusu left.")
    ion = doc.char_span(3, 11, label="PERSON")
    balti = doc.char_span(24, 29, label="GPE")
    for i, span in enumerate((ion, balti)):
        span._.entity_id = f"e{i}"
    doc.spans["sc"] = [ion, balti]
    entities = {"e0": [ion], "e1": [balti]}
    optimizer = MaskingOptimizer.__new__(MaskingOptimizer)  # only its span group and name are read here
    optimizer.spans_key, optimizer.name = "sc", "optimizer"
    occurrences = [(3, 11), (16, 20), (34, 38)]
    optimizer._add_uncovered_names(doc, entities, occurrences)
    added = sorted((s.start_char, s.end_char) for s in entities.get(TARGET_ID, []))
    assert added == [(16, 20), (34, 38)]
    assert sorted((s.start_char, s.end_char) for s in doc.spans["sc"]) == [(3, 11), (16, 20), (24, 29), (34, 38)]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["fast", "strict"])
def test_spacy_components_in_pieces_give_the_masks_of_the_whole_document(name, monkeypatch):
    """The court-case sample four times (other details in each copy), spaCy's NERs in pieces of 1,500 characters
    (cut at paragraph breaks) and whole: the same masks."""
    from core_fixtures import SAMPLE

    import textanon
    from textanon.io.datasets.records import Record
    from textanon.run import chunking, runner

    sample = SAMPLE.read_text(encoding="utf-8")
    text = "\n\n".join(sample.replace("48213/09", f"4821{i}/09") for i in range(4))
    nlp = textanon.load(name)

    def masks():
        [doc] = runner.pipe_docs(nlp, [Record(id="a", text=text, target="Andrei Petrescu")])
        return [tuple(m) for m in doc._.masks]

    whole = masks()
    seen = []

    def in_pieces(components, docs, **kwargs):
        seen.extend(len(d.text) for d in docs)
        return chunking.pipe_in_pieces(components, docs, max_chars=1500, **kwargs)

    monkeypatch.setattr(runner, "pipe_in_pieces", in_pieces)
    assert len(text) > 3 * 1500 and seen == [] and whole
    assert masks() == whole and seen == [len(text), len(text)]  # both of spaCy's NERs, the second with span groups
