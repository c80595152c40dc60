"""Summary pseudo-abstracts: sentences from across the body, cut out of what the judge and the index see."""

import json

from textanon_lab.tuning.search_settings import GroupJudge, dev_pool, tuning_documents
from textanon_lab.tuning.summaries import sentence_spans, split_summary, summary_pseudo_abstracts


def _body(n=40):
    return "\n".join(f"Sentence {i} says fact{i} about the actor. Filler {i} adds more words here." for i in range(n))


def test_sentence_spans_split_on_ends_and_lines():
    text = "First one. Second one!\nThird without end\nFourth? "
    assert [text[s:e] for s, e in sentence_spans(text)] == ["First one.", "Second one!", "Third without end", "Fourth?"]


def test_split_summary_draws_sentences_from_across_the_body_and_cuts_them_out():
    body = _body()
    abstract, rest = split_summary(body, share=0.1, min_chars=200, max_chars=400)
    picked = [f"fact{i} " for i in range(40) if f"fact{i} " in abstract]
    assert "Sentence 0 says fact0" in abstract  # the first sentence is included
    assert len(picked) >= 3 and int(picked[-1][4:]) > 25  # from the beginning to the end of the body
    assert 200 <= len(abstract) <= 400 + 60
    for sentence in abstract.split(". "):
        assert sentence.rstrip(".") not in rest  # no drawn sentence is left in the rest
    assert "Filler 0 adds more words here." in rest and rest.count("\n") >= 30  # paragraphs kept


def test_summary_pool_only_long_bodies_of_non_evaluated_actors_are_eligible(tmp_path):
    records = [
        {"name": "Long Actor", "public_knowledge": _body(60)},
        {"name": "Short Actor", "public_knowledge": "Short Actor sang. " * 5},
        {"name": "Evaluated Actor", "public_knowledge": _body(60)},
    ]
    (tmp_path / "bk.json").write_text(json.dumps(records))
    (tmp_path / "eval.json").write_text(json.dumps([{"name": "Evaluated Actor", "original_abstract": "x"}]))
    pool = {p["name"]: p for p in summary_pseudo_abstracts(tmp_path / "bk.json", tmp_path / "eval.json", 2000)}
    assert set(pool) == {"Long Actor", "Short Actor"}  # the evaluated actor is never a tuning document
    assert pool["Long Actor"]["eligible"] and not pool["Short Actor"]["eligible"]
    assert pool["Short Actor"]["body"] == records[1]["public_knowledge"]  # a candidate of the judge, whole
    assert dev_pool(tmp_path / "bk.json", tmp_path / "eval.json", "summary")[0]["name"] == "Long Actor"
    # the defender's index: the first quarter of the rest, never the pseudo-abstract
    docs = {
        d["name"]: d["text"]
        for d in tuning_documents(tmp_path / "bk.json", tmp_path / "eval.json", pool=list(pool.values()))
    }
    assert "fact0 " not in docs["Long Actor"] and docs["Long Actor"].startswith("Filler 0")
    assert docs["Evaluated Actor"].startswith("Sentence 0")  # a distractor, as in the evaluated index


def test_group_judge_reports_every_judge():
    items = [{"name": n, "abstract": ""} for n in ("a", "b")]
    pool = [{"name": n, "body": f"{n}word shared"} for n in ("a", "b")]
    judge = GroupJudge(items, pool, size=2)
    assert judge.rates(items, ["aword", "shared"]) == {"bm25": 0.5}
