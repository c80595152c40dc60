"""Candidates beyond the detected entities (textanon.risk.search.candidates): titles, numbers, phrases, the rule."""

import spacy
from parsed_docs import parsed_doc

from textanon.risk.search.candidates import informative, propose


def test_propose_titles_numbers_and_phrases():
    nlp = spacy.blank("en")
    doc = nlp('She starred in "Glass Harbour" in 1960 and earned 2,000 zloty as a young surgeon.')
    got = {(doc.text[c.start : c.end], c.kind, c.label) for c in propose(doc, taken=[])}
    assert ("Glass Harbour", "title", "MISC") in got
    assert ("1960", "number", "DATETIME") in got and ("2,000 zloty", "number", "QUANTITY") in got
    assert ("earned", "phrase", "MISC") in got and ("young surgeon", "phrase", "MISC") in got


def _proposed(doc, taken=()):
    return {doc.text[c.start : c.end]: c for c in propose(doc, taken=list(taken))}


def test_a_number_and_the_noun_it_counts_are_one_candidate_its_words_the_single_tokens():
    nlp = spacy.blank("en")
    doc = nlp("The tenor sang in over 70 operas and sold 3 million records by 1988.")
    got = _proposed(doc)
    assert got["70 operas"].kind == "number" and got["70 operas"].label == "QUANTITY"
    assert [doc.text[s:e] for s, e in got["70 operas"].words] == ["70", "operas"]
    assert [doc.text[s:e] for s, e in got["3 million records"].words] == ["3", "million", "records"]
    assert "70" not in got and "operas" not in got  # one candidate, not two
    assert got["1988"].label == "DATETIME"  # a year stays a date of its own
    assert "over" not in doc.text[got["70 operas"].start : got["70 operas"].end]  # the bound stays outside


def radio_plays():
    """ "She wrote over 12 radio plays.", parsed: "12" counts the noun chunk "radio plays"."""
    return parsed_doc(
        ["She", "wrote", "over", "12", "radio", "plays", "."],
        pos=["PRON", "VERB", "ADP", "NUM", "NOUN", "NOUN", "PUNCT"],
        heads=[1, 1, 3, 5, 5, 1, 1],
        deps=["nsubj", "ROOT", "quantmod", "nummod", "compound", "dobj", "punct"],
    )


def test_a_parsed_numeric_phrase_takes_the_rest_of_its_noun_chunk():
    doc = radio_plays()
    got = _proposed(doc)
    assert "12 radio plays" in got
    assert [doc.text[s:e] for s, e in got["12 radio plays"].words] == ["12", "radio", "plays"]
    assert "radio plays" not in got  # the noun chunk is not proposed again


def test_a_numeric_phrase_never_covers_less_than_the_single_number_did():
    nlp = spacy.blank("en")
    doc = nlp("She owned 40 horses and paid $2.")
    # the noun already detected: the number stays a candidate of its own
    got = _proposed(doc, taken=[(doc.text.index("horses"), doc.text.index("horses") + 6)])
    assert "40" in got and got["40"].label == "QUANTITY"
    # one word only ("$2"): the number alone, as before
    assert "2" in _proposed(doc) and "$2" not in _proposed(doc)


def test_informative_rule():
    assert informative(2, 100, True, max_df=0.25, rare_df=0.01)  # about the target, not common
    assert not informative(50, 100, True, max_df=0.25, rare_df=0.01)  # common
    assert informative(1, 100, None, max_df=0.25, rare_df=0.01)  # rare, target unknown
    assert not informative(0, 100, True, max_df=0.25, rare_df=0.01)  # the index cannot link it


def test_taken_intervals_agree_with_a_linear_scan():
    """The O(log n) overlap test of propose() answers as the linear scan it replaced, whatever was taken."""
    import random

    from textanon.risk.search.candidates import _Taken

    rng = random.Random(0)
    for _ in range(200):
        spans = [(a, a + rng.randint(1, 6)) for a in (rng.randint(0, 60) for _ in range(rng.randint(0, 8)))]
        taken, linear = _Taken(spans), list(spans)
        for _ in range(30):
            start = rng.randint(0, 70)
            end = start + rng.randint(0, 8)
            free = start < end and not any(s < end and start < e for s, e in linear)
            assert taken.free(start, end) == free
            if free:
                taken.add(start, end)
                linear.append((start, end))


def test_the_search_risk_masks_a_numeric_phrase_whole_or_else_still_its_number(tmp_path):
    """An informative numeric phrase becomes one span; one the index never saw falls back to its words, the number
    among them (as the single-number candidate it replaced), so the number stays covered (invented people)."""
    import json

    import textanon.pipes.factories  # noqa: F401
    from textanon.pipes.search_risk import SearchRisk
    from textanon.risk.search.builder import build_index
    from textanon.risk.search.source import LocalIndex

    people = [{"name": "Vera Lind", "public_knowledge": "Vera Lind is a singer. She sang in 70 operas in Riga."}]
    people += [
        {"name": f"Singer {c}", "public_knowledge": f"Singer {c} is a singer who sang in operas and concerts."}
        for c in "ABCDEFGHI"
    ]
    (tmp_path / "public.json").write_text(json.dumps(people))
    build_index(tmp_path / "public.json", tmp_path / "idx", progress=False)
    risk = SearchRisk(LocalIndex(tmp_path / "idx"), population_risk=False, targeted_risk=False)

    def added(text):
        doc = spacy.blank("en").make_doc(text)
        doc.spans["pii"] = []
        doc._.target = "Vera Lind"
        doc = risk(doc)
        return {s.text: s._.source for s in doc.spans["pii"] if (s._.source or "").startswith("candidate:")}

    assert added("The singer sang in over 70 operas.").get("70 operas") == "candidate:number"
    fallback = added("The singer sang in over 70 arias.")  # "70 arias": in no document
    assert fallback.get("70") == "candidate:number" and "70 arias" not in fallback


def test_a_numeric_phrase_falls_back_to_exactly_the_candidates_it_replaced():
    # parsed: the noun chunk "radio plays" was a phrase candidate of its own before numeric phrases; when
    # "12 radio plays" is not informative as a whole, the risk tries "12" and "radio plays" as it did before
    from textanon.risk.search.candidates import plain_candidates

    doc = radio_plays()
    phrase = _proposed(doc)["12 radio plays"]
    before = {doc.text[c.start : c.end]: c for c in plain_candidates(doc, [])}
    assert sorted(doc.text[c.start : c.end] for c in phrase.fallback) == ["12", "radio plays"]
    assert [(c.start, c.end, c.words) for c in phrase.fallback] == [
        (before[t].start, before[t].end, before[t].words) for t in ("12", "radio plays")
    ]


def test_without_a_parser_a_verb_or_an_adverb_is_a_phrase_of_its_own():
    nlp = spacy.blank("en")
    doc = nlp("She appeared as a child alongside her father, later starred in horror films.")
    got = _proposed(doc)
    # before: "child alongside" and "later starred" were runs, a mask on them hid the verb and the adverb too
    for phrase in ("child", "alongside", "later", "starred", "horror films"):
        assert got[phrase].kind == "phrase", phrase
    assert "child alongside" not in got and "later starred" not in got
    assert [doc.text[s:e] for s, e in got["horror films"].words] == ["horror", "films"]
    # capitalized, the word is not looked up (a name: "Will", "Bill"); a run of nouns stays one phrase
    doc = nlp("Starred Harbour Festival award")
    assert "Starred Harbour Festival award" in _proposed(doc)
    # the setting off (candidate_verbs_apart = false): runs as before
    doc = nlp("She appeared as a child alongside her father, later starred in horror films.")
    got = {doc.text[c.start : c.end] for c in propose(doc, taken=[], verbs_apart=False)}
    assert {"child alongside", "later starred", "horror films"} <= got


def test_a_form_field_label_is_no_candidate_word():
    doc = spacy.blank("en")("Patient seen. DOB 03/14/1962, MRN 00482913, NHS number 9434765919, rare Tollund bog.")
    got = _proposed(doc)
    words = {doc.text[s:e] for c in got.values() for s, e in (c.words or [(c.start, c.end)])}
    assert not {"DOB", "MRN", "NHS"} & words
    assert any("Tollund" in text for text in got)  # other words still are


def test_a_piece_of_a_contraction_is_no_candidate_word():
    # "wo" + "n't", "ca" + "n’t": a candidate of its own wrote "they ***n't hire me"
    nlp = spacy.blank("en")
    doc = nlp("They won't hire the lawyer, I can’t say why, and I'm sure he'd wonder.")
    words = {doc.text[s:e] for c in propose(doc, taken=[]) for s, e in (c.words or [(c.start, c.end)])}
    spans = {doc.text[c.start : c.end] for c in propose(doc, taken=[])}
    assert not (words | spans) & {"wo", "ca", "n't", "n’t", "'m", "'d"}
    assert "lawyer" in words and "hire" in words
