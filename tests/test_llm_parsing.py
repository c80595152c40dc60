"""Reply parsing and string matching of the LLM anonymizer on hand-written (often hostile) replies."""
import pytest

from textanon.llm.matching import NormalizedText, find_all, mask_text, match_strings, merge_ranges
from textanon.llm.parsing import parse_reply, reply_is_complete, reply_is_looping

STOP = {"the", "a", "and"}


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
        ('[{"text": "Ada Quint", "label": "PERSON"}, {"text": "Leeds", "label": "LOC"}]',
         ["Ada Quint", "Leeds"]),  # values of label-like keys are categories, not spans
        ('{"name": "Ada Quint", "details": {"born": 1961, "city": ["Leeds"]}}', ["Ada Quint", "1961", "Leeds"]),
        ('["Ada Quint", ["nested", "Leeds"]]', ["Ada Quint", "nested", "Leeds"]),
        ('["Ada \\"the ace\\" Quint"]', ['Ada "the ace" Quint']),
        ('["Ada Quint", "Leeds", "computer sci', ["Ada Quint", "Leeds"]),  # cut by max_new_tokens
        ('{"name":"Ada Quint","job":"Fantasy","job":"Fant', ["Ada Quint", "Fantasy"]),  # truncated object: no keys
        ('["  Ada   Quint ", ""]', ["Ada Quint"]),
        # unquoted items of small models (SmolLM2 answers like this after the "[" reply prefix)
        ("[Ada Quint (born 1961), Leeds]", ["Ada Quint (born 1961)", "Leeds"]),
        ("[2014, 2016, 2016, 20", ["2014", "2016"]),  # cut: the last piece is dropped
    ],
)
def test_parse_reply_variants(reply, expected):
    result = parse_reply(reply)
    assert result.ok
    assert result.strings == expected


def test_parse_empty_list_is_ok():
    result = parse_reply("[]")
    assert result.ok and result.strings == []
    assert parse_reply("```json\n[]\n```").ok


@pytest.mark.parametrize("reply", [None, "", "   ", "I cannot help with that.", "[", "<|im_end|>", "\x00\x01\x02"])
def test_parse_garbage_is_failure_not_crash(reply):
    result = parse_reply(reply)
    assert not result.ok
    assert result.strings == []


def test_parse_hostile_inputs_never_raise():
    for reply in ["[" * 5000, "{" * 3000 + "}" * 10, '["a"' * 2000, "]]]]", "[1e999999]", "[" + '"x",' * 10000]:
        result = parse_reply(reply)
        assert isinstance(result.strings, list)


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


TEXT = ("Ada Quint (born 3 March 1961) is a British–Irish engineer. Quint studied in Leeds; "
        "ADA QUINT later moved to  Cork.\nHollywood's finest? No: Quint's garden.")


def test_find_all_occurrences_case_and_whitespace_tolerant():
    hits = find_all(TEXT, "Ada Quint")
    assert [TEXT[s:e] for s, e in hits] == ["Ada Quint", "ADA QUINT"]
    assert [TEXT[s:e] for s, e in find_all(TEXT, "moved to Cork")] == ["moved to  Cork"]
    # word boundaries: "Quint" inside "Quintessence" would not match; all 4 standalone uses do
    assert len(find_all(TEXT, "quint")) == 4


def test_find_all_unicode_and_punctuation_tolerance():
    assert [TEXT[s:e] for s, e in find_all(TEXT, "British-Irish")] == ["British–Irish"]
    assert find_all(TEXT, "Hollywood ' s") == find_all(TEXT, "Hollywood’s")
    assert find_all(TEXT, "Leeds.")  # trailing punctuation stripped on retry
    text = "Ａｄａ lives at ﬁve oaks."  # full-width letters and a ligature (NFKC changes lengths)
    hits = find_all(text, "Ada")
    assert [text[s:e] for s, e in hits] == ["Ａｄａ"]
    assert [text[s:e] for s, e in find_all(text, "five oaks")] == ["ﬁve oaks"]


def test_match_strings_counts_hallucinations_and_ignores_trivia():
    result = match_strings(NormalizedText(TEXT), ["Ada Quint", "Paris", "the", "...", "1961"], STOP)
    assert result.found == ["Ada Quint", "1961"]
    assert result.hallucinated == ["Paris"]
    assert result.ignored == ["the", "..."]
    assert len(result.ranges) == 3


def test_mask_text_merges_overlaps():
    text = "abc def ghi"
    masked, masks = mask_text(text, [(0, 3), (2, 7), (8, 11)], "***")
    assert masked == "*** ***"
    assert masks == [[0, 7, "***"], [8, 11, "***"]]
    assert merge_ranges([(5, 6), (0, 2), (2, 3)]) == [(0, 3), (5, 6)]
