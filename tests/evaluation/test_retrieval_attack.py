"""The retrieval judges: BM25 and dense (fake encoder) top-1 re-identification, body chunks, the disk cache."""

import numpy as np
import pytest
from fake_models import VocabularyEncoder

from textanon_eval.retrieval_attack import DenseAttack, LexicalAttack, chunks, reidentification, top1

BODIES = {
    "Ann Vell": "Ann Vell trained as a surgeon in Cork. She played a harbour pilot on stage.",
    "Bo Lind": "Bo Lind sang in Malmo. He recorded folk songs for a radio choir.",
    "Cy Mora": "Cy Mora ran a bakery in Lima before acting in westerns.",
}


def encoder():
    return VocabularyEncoder(BODIES.values())


def test_lexical_attack_ranks_the_own_body_first_and_counts_reidentifications():
    attack = LexicalAttack(BODIES)
    texts = {
        "Ann Vell": "*** trained as a surgeon in ***.",  # surgeon, trained: Ann Vell's body
        "Bo Lind": "*** sang folk songs.",
        "Cy Mora": "*** *** *** *** ***.",  # no indexed word: the attacker cannot guess
    }
    assert top1(attack, list(texts.values())) == ["Ann Vell", "Bo Lind", None]
    result = reidentification(attack, texts)
    assert result == {"rate": pytest.approx(200 / 3, abs=0.01), "reidentified": ["Ann Vell", "Bo Lind"], "documents": 3}


def test_reidentification_of_a_text_about_someone_outside_the_pool_is_an_error():
    with pytest.raises(ValueError, match="outside the attacker's pool"):
        reidentification(LexicalAttack(BODIES), {"Dee Stone": "a surgeon"})


def test_chunks_pack_sentences_up_to_the_word_limit():
    text = "One two three. Four five. Six seven eight nine ten eleven."
    assert chunks(text, max_words=5) == ["One two three. Four five.", "Six seven eight nine ten", "eleven."]
    assert chunks(text, max_words=4) == ["One two three.", "Four five.", "Six seven eight nine", "ten eleven."]
    assert chunks(text, max_words=100) == [text]
    assert chunks("", 5) == []


def test_dense_attack_takes_the_best_chunk_of_each_body():
    bodies = dict(
        BODIES, **{"Ann Vell": "Ann Vell sang. " + "Bakery bakery lima. " * 3 + "Surgeon harbour pilot stage."}
    )
    attack = DenseAttack(bodies, encoder=encoder(), chunk_words=4)
    scores = attack.scores(["surgeon harbour pilot stage"])
    # Ann Vell's last chunk matches exactly (cosine 1) although most of her body is about a bakery
    assert scores[0, attack.names.index("Ann Vell")] == pytest.approx(1.0)
    assert top1(attack, ["surgeon harbour pilot", "folk songs radio choir", "***"]) == ["Ann Vell", "Bo Lind", None]


def test_dense_attack_caches_the_body_embeddings_on_disk(tmp_path):
    first = encoder()
    a = DenseAttack(BODIES, encoder=first, cache_dir=tmp_path)
    assert first.calls == 1 and len(list(tmp_path.glob("dense_bodies_*.npy"))) == 1
    second = encoder()
    b = DenseAttack(BODIES, encoder=second, cache_dir=tmp_path)
    assert second.calls == 0  # read from the cache
    np.testing.assert_allclose(a.embeddings, b.embeddings)
    DenseAttack(dict(BODIES, **{"Cy Mora": "Cy Mora sang."}), encoder=second, cache_dir=tmp_path)
    assert second.calls == 1 and len(list(tmp_path.glob("dense_bodies_*.npy"))) == 2  # other bodies, other key
