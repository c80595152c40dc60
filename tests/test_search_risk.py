"""textanon_search_risk: population and targeted risk on a tiny index, fail closed, serialization."""

import json

import pytest
import spacy
from core_fixtures import CONFIG, FIXTURES, spans_at

import textanon  # noqa: F401
import textanon.pipes.factories  # noqa: F401  (the factories, also without the entry points)
import textanon.risk.search.registry  # noqa: F401  (textanon.LocalIndex.v1, also without the entry points)
from textanon.pipes.search_risk import SearchRisk
from textanon.risk.search.builder import build_index
from textanon.risk.search.source import LocalIndex

FIXTURE = FIXTURES / "search_public.json"
TEXT = (
    "Milo Castraven is an Irish actor who grew up in Cork and played a lawyer for the BBC. "
    "He married the writer Ann Dowell."
)


@pytest.fixture(scope="module")
def index_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("search") / "idx"
    build_index(FIXTURE, path, progress=False)
    return path


def make_doc(
    text=TEXT,
    mentions=(("Irish", "DEM", "E_irish"), ("Cork", "LOC", "E_cork"), ("BBC", "ORG", "E_bbc")),
    target="Milo Castraven",
):
    doc = spacy.blank("en").make_doc(text)
    spans = spans_at(doc, [(surface, label) for surface, label, _ in mentions])
    for span, (_, _, eid) in zip(spans, mentions):
        span._.entity_id, span._.source = eid, "ner"
    doc.spans["pii"] = spans
    doc._.target = target
    return doc


def test_population_risk_on_the_index(index_path):
    doc = SearchRisk(LocalIndex(index_path), k=2, k_rank=1, candidates=False)(make_doc())
    combos = doc._.risky_combinations
    assert ["E_cork"] in combos and ["E_bbc"] in combos  # one indexed document each
    reasons = {s._.entity_id: s._.risk_reasons for s in doc.spans["pii"]}
    assert reasons["E_cork"] == ["population: in 1 indexed documents (k=2)"]
    assert all(s._.ic is not None and s._.ic > 0 for s in doc.spans["pii"])  # IC from the index


def test_index_ic_is_the_cost_rare_costs_more(index_path):
    doc = make_doc(
        text="He studied at the University of Oslo and in Cork.",
        mentions=(("University of Oslo", "ORG", "E_uni"), ("Cork", "LOC", "E_cork")),
        target=None,
    )
    doc = SearchRisk(LocalIndex(index_path), k=1, candidates=False)(doc)
    ic = {s._.entity_id: s._.ic for s in doc.spans["pii"]}
    assert ic["E_cork"] > ic["E_uni"]  # Cork: 1 document, University of Oslo: 3


def test_targeted_risk_pushes_the_target_out_of_the_top_ranks(index_path):
    # k=1: no population risk at all (no phrase has fewer than 1 document); only the attacker decides
    doc = SearchRisk(LocalIndex(index_path), k=1, k_rank=2, candidates=False)(make_doc())
    rank = doc._.reid_rank
    assert rank["before"] == 1 and rank["target_documents"] == 1
    assert rank["after"] is None or rank["after"] > 2
    assert rank["steps"] >= 1
    targeted = [s for s in doc.spans["pii"] if any(r.startswith("targeted") for r in s._.risk_reasons or [])]
    assert targeted and all([s._.entity_id] in doc._.risky_combinations for s in targeted)
    assert not doc._.anonymization_warnings


def test_targeted_risk_then_the_optimizer_masks_what_it_decided(index_path):
    nlp = spacy.blank("en")
    nlp.add_pipe(
        "textanon_search_risk",
        config={
            "index": {"@misc": "textanon.LocalIndex.v1", "path": str(index_path)},
            "k": 1,
            "k_rank": 2,
            "candidates": False,
        },
    )
    nlp.add_pipe("textanon_optimizer")
    doc = make_doc()
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    from textanon.risk.search.backends import open_index
    from textanon.risk.search.targeted import target_rank
    from textanon.risk.search.terms import query_words

    index = open_index(index_path)
    rank = target_rank(index.search(query_words(doc._.anonymized_text), 20), set(index.documents_of("Milo Castraven")))
    assert "Castraven" not in doc._.anonymized_text
    assert rank is None or rank > 2  # the judge over the same index agrees


def test_no_target_documents_means_population_risk_only(index_path):
    doc = SearchRisk(LocalIndex(index_path), k=2, candidates=False)(make_doc(target="Someone Else"))
    assert doc._.reid_rank is None and ["E_cork"] in doc._.risky_combinations


def test_candidates_beyond_entities_are_kept_when_informative(index_path):
    doc = SearchRisk(LocalIndex(index_path), k=2, k_rank=1)(make_doc())
    added = {s.text: s._.source for s in doc.spans["pii"] if (s._.source or "").startswith("candidate:")}
    assert added.get("lawyer") == "candidate:phrase"  # in the target's document, in 1 of 8
    assert "actor" not in added  # in 6 of 8 documents: not informative
    starts = [(s.start_char, s.end_char) for s in doc.spans["pii"]]
    assert all(a[1] <= b[0] for a, b in zip(starts, starts[1:]))  # the group stays non-overlapping


@pytest.mark.parametrize("broken", ["missing", "incompatible"])
def test_missing_or_broken_index_fails_closed(tmp_path, broken):
    path = tmp_path / "idx"
    if broken == "incompatible":
        build_index(FIXTURE, path, progress=False)
        meta = json.loads((path / "meta.json").read_text())
        (path / "meta.json").write_text(json.dumps(dict(meta, schema_version=-1)))
    doc = SearchRisk(LocalIndex(path))(make_doc())
    entities = {s._.entity_id for s in doc.spans["pii"]}
    assert len(entities) > 3  # unfiltered candidates were added too
    assert sorted(doc._.risky_combinations) == sorted([e] for e in entities)
    warnings = doc._.anonymization_warnings
    assert len(warnings) == 1 and "search index unavailable" in warnings[0]
    assert not any(w in warnings[0] for w in ("Cork", "Irish", "Castraven", "lawyer"))


class SearchFails(LocalIndex):
    """An index that opens and counts, then fails on its first BM25 query (the targeted risk's: a ranking, or a
    word's scores, from which the risk ranks)."""

    def open(self):
        index = super().open()

        class Failing:
            meta, n_docs = index.meta, index.n_docs

            def __getattr__(self, name):
                return getattr(index, name)

            def search(self, words, limit):
                raise OSError("disk gone")

            def term_scores_all(self, word, limit):
                raise OSError("disk gone")

            def term_scores(self, word, docs):
                raise OSError("disk gone")

        return Failing()


def test_index_failing_mid_document_fails_closed(index_path):
    doc = SearchRisk(SearchFails(index_path), k=1, k_rank=2, candidates=False)(make_doc())
    assert sorted(doc._.risky_combinations) == [["E_bbc"], ["E_cork"], ["E_irish"]]
    assert "search index failed (OSError)" in doc._.anonymization_warnings[0]


def _decided(doc):
    spans = [(s.start_char, s.end_char, s.label_, s._.source, s._.entity_id, s._.ic) for s in doc.spans["pii"]]
    return spans, sorted(doc._.risky_combinations), doc._.reid_rank


def test_a_failure_half_way_leaves_no_partial_decision(index_path, tmp_path):
    """The index splits "lawyer actor" (unseen as a phrase) and keeps the informative word "lawyer", then fails:
    the document is decided as if the index had been missing from the start (the phrase masked whole, never
    "lawyer" plus an unmasked "actor"), each candidate and each risk once, one warning."""
    text = "Milo Castraven is an Irish actor who grew up in Cork and was a lawyer actor for the BBC."
    failed = SearchRisk(SearchFails(index_path), k=1, k_rank=2)(make_doc(text=text))
    missing = SearchRisk(LocalIndex(tmp_path / "none"), k=1, k_rank=2)(make_doc(text=text))
    assert _decided(failed) == _decided(missing)
    assert "lawyer actor" in [s.text for s in failed.spans["pii"]]
    spans = [(s.start_char, s.end_char) for s in failed.spans["pii"]]
    assert len(spans) == len(set(spans))
    assert failed._.anonymization_warnings == [
        "textanon_search_risk: search index failed (OSError); every candidate (5 entities) treated as a risk"
    ]


def test_failing_closed_adds_each_risk_once(tmp_path):
    """An entity an earlier scorer already made a risk on its own is not listed again."""
    doc = make_doc()
    doc._.risky_combinations = [["E_cork"], ["E_bbc", "E_irish"]]
    doc = SearchRisk(LocalIndex(tmp_path / "none"), candidates=False)(doc)
    assert doc._.risky_combinations == [["E_cork"], ["E_bbc", "E_irish"], ["E_bbc"], ["E_irish"]]


def test_serialization_keeps_the_index_path_not_the_index(index_path, tmp_path):
    nlp = spacy.blank("en")
    nlp.add_pipe(
        "textanon_search_risk",
        config={"index": {"@misc": "textanon.LocalIndex.v1", "path": str(index_path)}, "k": 4, "k_rank": 2},
    )
    nlp.to_disk(tmp_path / "pipe")
    saved = json.loads((tmp_path / "pipe" / "textanon_search_risk" / "cfg.json").read_text())
    assert saved["index"] == {"path": str(index_path)} and saved["k"] == 4
    assert sorted(p.name for p in (tmp_path / "pipe" / "textanon_search_risk").iterdir()) == ["cfg.json"]
    loaded = spacy.load(tmp_path / "pipe")
    risk = loaded.get_pipe("textanon_search_risk")
    assert (risk.index.path, risk.k, risk.k_rank) == (str(index_path), 4, 2)
    assert loaded.config["components"]["textanon_search_risk"]["index"]["path"] == str(index_path)
    doc = risk(make_doc())
    assert doc._.reid_rank is not None


def test_default_pipeline_config_runs_the_search_risk_over_the_prior():
    """The default (fast) profile: the search risk over the word-frequency prior, the language model disabled."""
    from spacy.util import load_config

    config = load_config(CONFIG, interpolate=False)
    assert "textanon_search_risk" in config["nlp"]["pipeline"]
    assert "textanon_lm_risk" in config["nlp"]["disabled"] and "textanon_search_risk" not in config["nlp"]["disabled"]
    assert config["components"]["textanon_search_risk"]["index"]["@misc"] == "textanon.FrequencyPrior.v1"


def test_words_of_an_entity_around_the_name_are_not_made_spans_again(index_path):
    """Words of a detected span that holds the protected name are masked with it (the optimizer masks that
    entity): the attacker loop must neither propose them again nor name ids that have no mention."""
    doc = make_doc(
        text="The Irish actor Milo Castraven grew up in Cork.",
        mentions=(("Irish actor Milo Castraven", "PERSON", "E_person"), ("Cork", "LOC", "E_cork")),
    )
    doc = SearchRisk(LocalIndex(index_path), k=1, k_rank=8, candidates=False)(doc)
    ids = {s._.entity_id for s in doc.spans["pii"]}
    assert all(e in ids for combo in doc._.risky_combinations for e in combo)
    assert not any("could not be made spans" in w for w in doc._.anonymization_warnings or [])
    assert ["E_person"] not in doc._.risky_combinations  # "Irish", "actor" were never loose words
    assert doc._.reid_rank["steps"] >= 1  # the loop ran (Cork)


def test_unseen_words_are_candidates_only_when_asked(index_path):
    doc = make_doc(text="Milo Castraven once kept a pet iguana in Cork.", mentions=(("Cork", "LOC", "E_cork"),))
    kept = SearchRisk(LocalIndex(index_path), k=2, candidate_unseen=True)(doc)
    added = {s.text for s in kept.spans["pii"] if (s._.source or "").startswith("candidate:")}
    assert "iguana" in added and [next(s._.entity_id for s in kept.spans["pii"] if s.text == "iguana")] in (
        kept._.risky_combinations
    )  # never indexed: fewer than k documents
    doc = make_doc(text="Milo Castraven once kept a pet iguana in Cork.", mentions=(("Cork", "LOC", "E_cork"),))
    default = SearchRisk(LocalIndex(index_path), k=2, assume_unindexed=0.0)(doc)  # only what the index holds
    assert "iguana" not in {s.text for s in default.spans["pii"]}


def _loose_masked(doc):
    return {
        s.text
        for s in doc.spans["pii"]
        if s._.source == "candidate:word" and [s._.entity_id] in doc._.risky_combinations
    }


def test_a_stronger_attacker_assumes_the_target_record_holds_what_the_index_lacks(index_path):
    """The index holds none of these words in Milo Castraven's document (each is in another person's): an
    attacker with the index alone cannot link them to him, one who knows more of his public record may.
    With ``assume_unindexed`` the defender counts them in his score and masks until he leaves the top k_rank."""
    text = "Milo Castraven trained as a surgeon and an architect before serving as a lieutenant."
    index_only = SearchRisk(LocalIndex(index_path), k=1, k_rank=1, candidates=False)(make_doc(text, mentions=()))
    assert index_only._.reid_rank["steps"] == 0 and not _loose_masked(index_only)
    stronger = SearchRisk(LocalIndex(index_path), k=1, k_rank=1, candidates=False, assume_unindexed=1.0)(
        make_doc(text, mentions=())
    )
    assert stronger._.reid_rank["steps"] >= 1
    assert _loose_masked(stronger) & {"surgeon", "architect", "lieutenant"}
    assert stronger._.reid_rank["after"] is None or stronger._.reid_rank["after"] > 1


def test_population_and_targeted_risk_can_be_switched_off(index_path):
    both = SearchRisk(LocalIndex(index_path), k=2, k_rank=2, candidates=False)(make_doc())
    assert ["E_cork"] in both._.risky_combinations and both._.reid_rank is not None
    no_population = SearchRisk(LocalIndex(index_path), k=2, k_rank=2, candidates=False, population_risk=False)(
        make_doc()
    )
    reasons = [r for s in no_population.spans["pii"] for r in s._.risk_reasons or []]
    assert reasons and not any(r.startswith("population") for r in reasons)
    no_targeted = SearchRisk(LocalIndex(index_path), k=2, k_rank=2, candidates=False, targeted_risk=False)(make_doc())
    assert no_targeted._.reid_rank is None and ["E_cork"] in no_targeted._.risky_combinations
    assert not any(r.startswith("targeted") for s in no_targeted.spans["pii"] for r in s._.risk_reasons or [])
    with pytest.raises(ValueError, match="assume_unindexed"):
        SearchRisk(LocalIndex(index_path), assume_unindexed=-0.1)


def test_pieces_of_contractions_are_never_words_to_mask(index_path):
    """ "I'm", "won't", "he's": masking "m", "t" or the "won" of "won't" alone writes "I***" and "wo*** hire" (the
    reader loses the negation) and hides nothing a search could use; the attacker still counts them."""
    text = "Milo Castraven said: I'm sure they won't hire me, and he's a surgeon who'd trained as an architect."
    doc = SearchRisk(LocalIndex(index_path), k=1, k_rank=1, candidates=False, assume_unindexed=1.0)(
        make_doc(text, mentions=())
    )
    masked = _loose_masked(doc)
    assert masked & {"surgeon", "architect"}  # the loop ran
    assert not masked & {"'m", "'s", "'d", "n't", "wo", "won"}


@pytest.mark.parametrize(
    "text, word, piece",
    [
        ("I'm here", "m", True),
        ("he\u2019s here", "s", True),
        ("they won't", "won", True),
        ("they won't", "t", True),
        ("she didn't", "didn", True),
        ("Jolie's film", "s", True),
        ("we won it", "won", False),
        ("the 1990s", "1990s", False),
        ("O'Brien", "brien", False),
        ("rock 'n' roll", "n", False),
    ],
)
def test_what_is_a_piece_of_a_contraction(text, word, piece):
    from textanon.risk.search.terms import is_clitic_piece

    start = text.lower().rindex(word)
    assert is_clitic_piece(text, start, start + len(word)) is piece


def test_index_path_replaces_the_configured_prior_and_survives_a_round_trip(index_path, tmp_path):
    """A config that keeps the package's prior block and sets ``index_path`` (what the search profile's override does:
    one value, which every confection version sets) decides over the index folder, and says so when saved."""
    from textanon.risk.search.prior import PriorSource

    nlp = spacy.blank("en")
    prior = {"@misc": "textanon.FrequencyPrior.v1", "n_docs": 20000}
    risk = nlp.add_pipe("textanon_search_risk", config={"index": prior, "index_path": str(index_path)})
    assert isinstance(risk.index, LocalIndex) and risk.index.path == str(index_path)
    nlp.to_disk(tmp_path / "pipe")
    loaded = spacy.load(tmp_path / "pipe")
    assert loaded.get_pipe("textanon_search_risk").index.path == str(index_path)
    assert loaded.get_pipe("textanon_search_risk")(make_doc())._.reid_rank is not None
    # without it, the prior decides
    bare = spacy.blank("en").add_pipe("textanon_search_risk", config={"index": prior})
    assert isinstance(bare.index, PriorSource) and bare.index_path is None
