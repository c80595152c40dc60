"""Reply parsing and string matching of the LLM anonymizer on hand-written (often hostile) replies.

Every test asserts the exact parse: the strings, whether a list was recovered (``ok``) and whether the
reply was complete (``complete``: False for a reply cut by the token limit, which the task treats as
incomplete and answers with its fallback).
"""

import pytest

from textanon.llm.matching import NormalizedText, find_all, match_strings
from textanon.llm.parsing import LLMReply, parse_reply, reply_is_complete, reply_is_looping

STOP = {"the", "a", "and"}


def _parsed(reply):
    result = parse_reply(reply)
    return result.strings, result.ok, result.complete


@pytest.mark.parametrize(
    "reply, expected",
    [
        ('["Ada Quint", "1961", "Leeds"]', ["Ada Quint", "1961", "Leeds"]),
        ('```json\n["Ada Quint", "Leeds"]\n```', ["Ada Quint", "Leeds"]),
        ('```\n["Ada Quint"]\n```\nHope this helps!', ["Ada Quint"]),
        ('Sure! Here is the list: ["Ada Quint", "Leeds"]. Let me know if you need more.', ["Ada Quint", "Leeds"]),
        ("['Ada Quint', 'Leeds']", ["Ada Quint", "Leeds"]),
        ('["Ada Quint", "Leeds",]', ["Ada Quint", "Leeds"]),
        ('["Ada Quint", "ada quint", "Leeds", "Leeds"]', ["Ada Quint", "Leeds"]),
        (
            '[{"text": "Ada Quint", "label": "PERSON"}, {"text": "Leeds", "label": "LOC"}]',
            ["Ada Quint", "Leeds"],
        ),  # values of label-like keys are categories, not spans
        ('{"name": "Ada Quint", "details": {"born": 1961, "city": ["Leeds"]}}', ["Ada Quint", "1961", "Leeds"]),
        ('["Ada Quint", ["nested", "Leeds"]]', ["Ada Quint", "nested", "Leeds"]),
        ('["Ada \\"the ace\\" Quint"]', ['Ada "the ace" Quint']),
        ('["  Ada   Quint ", ""]', ["Ada Quint"]),
        ("[Ada Quint (born 1961), Leeds]", ["Ada Quint (born 1961)", "Leeds"]),  # unquoted items (SmolLM2)
        ("[1961, 2.5, true, null, 1e999999]", ["1961", "2.5"]),  # booleans, null, infinity are no spans
    ],
)
def test_complete_replies_parse_exactly(reply, expected):
    assert _parsed(reply) == (expected, True, True)


@pytest.mark.parametrize(
    "reply, expected",
    [
        # an object mapping spans to categories is read as its keys, never as ["PERSON"]
        ('{"John Smith": "PERSON"}', ["John Smith"]),
        ('{"John Smith": "person", "Leeds": "Location", "1961": "DATE"}', ["John Smith", "Leeds", "1961"]),
        ('```json\n{"John Smith": "PERSON", "Acme Ltd": "ORG"}\n```', ["John Smith", "Acme Ltd"]),
        ('{"John Smith": {"type": "PERSON"}, "Leeds": null}', ["John Smith", "Leeds"]),
        # categories mapping to spans: the spans (the values), not the category names
        ('{"PERSON": ["John Smith"], "LOC": ["Leeds"]}', ["John Smith", "Leeds"]),
        # a field mapping to a span: the span, not the field name
        ('{"name": "John Smith", "job": "welder"}', ["John Smith", "welder"]),
        ('{"John Smith": "PERSON", "age": 45}', ["John Smith", "45"]),
    ],
)
def test_objects_give_spans_not_category_labels(reply, expected):
    assert _parsed(reply) == (expected, True, True)


@pytest.mark.parametrize(
    "reply, expected",
    [
        ('Names: ["Ada Quint"]\nPlaces: ["Leeds", "Cork"]', ["Ada Quint", "Leeds", "Cork"]),
        ('```json\n["Ada Quint"]\n```\n```json\n["Selkie"]\n```', ["Ada Quint", "Selkie"]),
        ('[] and also ["Leeds"]', ["Leeds"]),
        ('["Ada Quint"] {"Leeds": "LOC"} [1961]', ["Ada Quint", "Leeds", "1961"]),
    ],
)
def test_several_lists_are_all_used(reply, expected):
    assert _parsed(reply) == (expected, True, True)


@pytest.mark.parametrize(
    "reply, expected",
    [
        ('["Ada Quint", "Leeds", "computer sci', ["Ada Quint", "Leeds"]),  # cut by max_new_tokens
        ('{"name":"Ada Quint","job":"Fantasy","job":"Fant', ["Ada Quint", "Fantasy"]),  # no keys of fields
        ('{"John Smith": "PERSON", "Leeds": "LOC", "Co', ["John Smith", "Leeds"]),  # keys of categories
        ("[2014, 2016, 2016, 20", ["2014", "2016"]),  # unquoted: the last piece is dropped
        ('["Ada Quint"] and ["Leeds", "Co', ["Ada Quint", "Leeds"]),  # a complete list, then a cut one
        ('["a"' * 2000, ["a"]),
        ("[" + '"x",' * 10000, ["x"]),
    ],
)
def test_truncated_replies_keep_complete_items_but_are_incomplete(reply, expected):
    assert _parsed(reply) == (expected, True, False)


def test_empty_lists_are_ok_and_complete():
    assert _parsed("[]") == ([], True, True)
    assert _parsed("```json\n[]\n```") == ([], True, True)
    assert _parsed("{}") == ([], True, True)
    assert parse_reply("[]").how == "empty"


@pytest.mark.parametrize(
    "reply, how, complete",
    [
        (None, "no_reply", True),
        ("", "empty_reply", True),
        ("   ", "empty_reply", True),
        ("I cannot help with that.", "unparseable", True),
        ("<|im_end|>", "unparseable", True),
        ("\x00\x01\x02", "unparseable", True),
        ("]]]]", "unparseable", True),
        ("[", "truncated_empty", False),
        ("[" * 5000, "truncated_empty", False),
        ("{" * 3000 + "}" * 10, "truncated_empty", False),
    ],
)
def test_garbage_is_a_failure_not_a_crash(reply, how, complete):
    result = parse_reply(reply)
    assert (result.strings, result.ok, result.how, result.complete) == ([], False, how, complete)


def test_llm_reply_carries_the_finish_reason_and_parses_like_its_text():
    reply = LLMReply('["Ada Quint"]', finish_reason="length")
    assert reply == '["Ada Quint"]' and reply.finish_reason == "length"
    assert LLMReply("[]").finish_reason is None
    assert _parsed(reply) == (["Ada Quint"], True, True)  # the task, not the parser, reads finish_reason


def test_reply_is_complete():
    assert reply_is_complete('Here: ["a", "b]"]')
    assert not reply_is_complete('["a", "b')
    assert not reply_is_complete("no list yet")


def test_reply_is_looping_detects_cycles_only():
    assert reply_is_looping('["Ada", "Leeds", "Quint", "Quint", "Quint", "Quint", "Qu', 3)
    assert reply_is_looping('["a", "b", "a", "b", "a", "b"', 4)
    assert not reply_is_looping('["a", "b", "c", "d", "e", "a"', 4)
    assert not reply_is_looping('[{"text": "a", "label": "P"}, {"text": "b", "label": "P"}, {"text": "c"', 2)
    assert reply_is_looping("[2014, 2016, 2016, 2016, 2016, 2016, 2", 4)  # unquoted items
    assert not reply_is_looping('["a", "a", "a", "a", "a"', 0)


TEXT = (
    "Ada Quint (born 3 March 1961) is a British–Irish engineer. Quint studied in Leeds; "
    "ADA QUINT later moved to  Cork.\nHollywood's finest? No: Quint's garden."
)


def test_find_all_occurrences_case_and_whitespace_tolerant():
    hits = find_all(TEXT, "Ada Quint")
    assert [TEXT[s:e] for s, e in hits] == ["Ada Quint", "ADA QUINT"]
    assert [TEXT[s:e] for s, e in find_all(TEXT, "moved to Cork")] == ["moved to  Cork"]
    # word boundaries: "Quint" inside "Quintessence" would not match; all 4 standalone uses do
    assert len(find_all(TEXT, "quint")) == 4


def test_find_all_unicode_and_punctuation_tolerance():
    assert [TEXT[s:e] for s, e in find_all(TEXT, "British-Irish")] == ["British–Irish"]
    assert find_all(TEXT, "Hollywood ' s") == find_all(TEXT, "Hollywood’s")
    assert [TEXT[s:e] for s, e in find_all(TEXT, "Leeds.")] == ["Leeds"]  # trailing punctuation stripped on retry
    text = "Ａｄａ lives at ﬁve oaks."  # full-width letters and a ligature (NFKC changes lengths)
    hits = find_all(text, "Ada")
    assert [text[s:e] for s, e in hits] == ["Ａｄａ"]
    assert [text[s:e] for s, e in find_all(text, "five oaks")] == ["ﬁve oaks"]


def test_match_strings_counts_hallucinations_and_ignores_trivia():
    result = match_strings(NormalizedText(TEXT), ["Ada Quint", "Paris", "the", "...", "1961"], STOP)
    assert result.found == ["Ada Quint", "1961"]
    assert result.hallucinated == ["Paris"]
    assert result.ignored == ["the", "..."]
    assert [TEXT[s:e] for s, e in result.ranges] == ["Ada Quint", "1961", "ADA QUINT"]
