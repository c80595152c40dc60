"""The retrieval judges' columns of the benchmark: who is re-identified by searching the public bodies.

For every row (systems run here, published anonymizations, LLM designs), the anonymized texts are ranked
against the **full** public bodies of the evaluated people by the two attackers of
:mod:`textanon_eval.retrieval_attack` — BM25 (``bm25_reid``) and MiniLM chunk embeddings
(``dense_reid``) — and the share re-identified at rank 1 is recorded (%). No anonymizer uses them.

**The judges are fixed by a written rule** (docs/protocol.md): each is a frozen :class:`JudgeSpec`
(:data:`BM25_JUDGE`, :data:`MINILM_JUDGE`), written here before it scores any anonymization, and
:func:`add_judge_columns` builds the attackers from it. Every row a judge scores records the judges'
:attr:`JudgeSpec.fingerprint` (``judge_fingerprints``); changing any field of a spec changes its fingerprint, so
every row must be scored again: a partial run refuses to merge its rows into rows scored by other judges
(:func:`carried_rows`). A change of a judge's code that changes its scores must raise the spec's ``revision``.
"""

import hashlib
import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from textanon.risk.language_models.loading import cache_dir as base_cache
from textanon_eval.retrieval_attack import DenseAttack, LexicalAttack, reidentification

#: how many hex digits of the sha256 a fingerprint keeps
FINGERPRINT_CHARS = 12
FINGERPRINTS = "judge_fingerprints"
UNVERIFIED = "judge_unverified"


@dataclass(frozen=True)
class JudgeSpec:
    """The written rule of one retrieval judge: every field that decides its scores."""

    #: the row's column it fills
    column: str
    #: the retrieval method
    method: str
    #: the embedding model id (None for a lexical judge)
    model: Optional[str]
    #: how texts and bodies are cut into the units that are compared
    tokenizer: str
    chunking: str
    #: BM25 parameters (None for a dense judge)
    k1: Optional[float]
    b: Optional[float]
    #: words per chunk (None when whole texts are compared)
    chunk_words: Optional[int]
    #: when a text counts as re-identified
    scoring: str
    #: the attacker's background knowledge
    background: str
    #: raised when the judge's code changes its scores without a change of the fields above
    revision: int = 1

    def canonical(self) -> str:
        """The spec as canonical JSON (sorted keys, no spaces): what the fingerprint hashes."""
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"), ensure_ascii=True)

    @property
    def fingerprint(self) -> str:
        """The first :data:`FINGERPRINT_CHARS` hex digits of the sha256 of :meth:`canonical`."""
        return hashlib.sha256(self.canonical().encode("utf-8")).hexdigest()[:FINGERPRINT_CHARS]


_SCORING = (
    "re-identified when the text's own person is ranked first among the pool (top-1, score > 0; a text with no "
    "evidence is never re-identified); the column is the % of the row's texts re-identified"
)
_BACKGROUND = (
    "the public_knowledge body of every record of the benchmark's data file (the evaluated people's full public "
    "bodies; for the ECHR benchmark the published judgments); the pool = the records with a body"
)
BM25_JUDGE = JudgeSpec(
    column="bm25_reid",
    method="Okapi BM25 (textanon_eval.bm25.BM25; idf ln(1 + (N - df + 0.5) / (df + 0.5)), each distinct query "
    "word counted once)",
    model=None,
    tokenizer="lower-case \\w+ words minus spaCy's English stop words",
    chunking="none: the whole text is the query, each whole body a document",
    k1=1.5,
    b=0.75,
    chunk_words=None,
    scoring=_SCORING,
    background=_BACKGROUND,
)
MINILM_JUDGE = JudgeSpec(
    column="dense_reid",
    method="dense retrieval: a person's score is the highest cosine between any chunk of the text and any chunk "
    "of their body (L2-normalised sentence embeddings)",
    model="sentence-transformers/all-MiniLM-L6-v2",
    tokenizer="the model's word pieces (at most 256 per chunk)",
    chunking="consecutive sentences (split after . ! ? or at new lines) packed into chunks of at most chunk_words "
    "whitespace words; a longer sentence cut into pieces",
    k1=None,
    b=None,
    chunk_words=100,
    scoring=_SCORING,
    background=_BACKGROUND,
)
#: the benchmark's judges, in column order
JUDGES = (BM25_JUDGE, MINILM_JUDGE)


def fingerprints(specs: Sequence[JudgeSpec] = JUDGES) -> Dict[str, str]:
    """``{column: fingerprint}`` of ``specs``."""
    return {spec.column: spec.fingerprint for spec in specs}


class JudgeMismatch(ValueError):
    """Rows scored by judges of other specs than those of this run (the message names them)."""


def add_judge_columns(
    records, systems: Dict[str, dict], rows: List[dict], cache_dir: Optional[Path] = None, encoder=None
) -> dict:
    """Set ``bm25_reid`` and ``dense_reid`` (% of the row's texts whose own person ranks first) on every row
    of ``rows`` (in place), from ``systems[row]["texts"]``; returns what the result records about the judges.
    ``cache_dir``: where the body embeddings are kept (default: the textanon cache); ``encoder``: the
    sentence encoder (default MiniLM, :class:`textanon_eval.embeddings.Encoder`). The attackers are built
    from :data:`JUDGES`; every row gets their fingerprints (``judge_fingerprints``; another encoder than the spec's
    model is recorded as a judge of its own, with its own fingerprint)."""
    if cache_dir is None:
        cache_dir = base_cache() / "retrieval"
    bodies = {r.name: r.background for r in records if r.background}
    lexical = LexicalAttack(bodies)
    if (lexical.bm25.k1, lexical.bm25.b) != (BM25_JUDGE.k1, BM25_JUDGE.b):
        raise JudgeMismatch(
            f"the BM25 attacker does not follow its written rule (k1, b = {BM25_JUDGE.k1}, {BM25_JUDGE.b})"
        )
    dense = DenseAttack(bodies, encoder=encoder, chunk_words=MINILM_JUDGE.chunk_words, cache_dir=cache_dir)
    # another encoder (a test's, a local copy of a different model) is another judge: its spec says which
    specs = [
        BM25_JUDGE,
        MINILM_JUDGE if dense.encoder.name == MINILM_JUDGE.model else replace(MINILM_JUDGE, model=dense.encoder.name),
    ]
    judges = {"bm25_reid": lexical, "dense_reid": dense}
    stamp = fingerprints(specs)
    for row in rows:
        texts = {n: t for n, t in systems[row["system"]]["texts"].items() if n in bodies}
        for column, judge in judges.items():
            row[column] = reidentification(judge, texts)["rate"] if texts else None
        row[FINGERPRINTS] = dict(stamp)
    return {
        "pool": len(bodies),
        "bodies": "the full public_knowledge of every evaluated record",
        "bm25_reid": f"BM25 (k1 {BM25_JUDGE.k1}, b {BM25_JUDGE.b}) over the bodies, lower-case words minus English "
        "stop words; % of texts whose own person ranks first",
        "dense_reid": f"{dense.encoder.name}: highest cosine between any {dense.chunk_words}-word chunk of the text "
        f"and any chunk of a person's body ({dense.n_chunks} body chunks); % ranked first",
        "specs": {spec.column: asdict(spec) | {"fingerprint": spec.fingerprint} for spec in specs},
        "fingerprints": stamp,
        "rule": "docs/protocol.md: the judges' specs are fixed in textanon_lab.benchmarks.judges before they score any "
        "anonymization; a changed spec changes its fingerprint and every row is scored again",
    }


def carried_rows(earlier: List[dict], fresh: List[dict]) -> List[dict]:
    """The ``earlier`` rows a partial run keeps beside its ``fresh`` rows, checked against the judges that scored
    the fresh rows: a row scored by judges of another fingerprint raises :class:`JudgeMismatch` naming the rows
    (changing a judge means scoring every row again); a row with judge values but no fingerprint (written before
    fingerprints were recorded) is kept, marked ``judge_unverified: true``. Unchanged when the fresh rows were
    not judged."""
    stamps = {json.dumps(r[FINGERPRINTS], sort_keys=True) for r in fresh if r.get(FINGERPRINTS)}
    if not stamps:
        return list(earlier)
    if len(stamps) > 1:
        raise JudgeMismatch(f"the rows of this run were scored by different judges: {sorted(stamps)}")
    stamp = json.loads(stamps.pop())
    other = [r for r in earlier if r.get(FINGERPRINTS) and r[FINGERPRINTS] != stamp]
    if other:
        names = ", ".join(repr(r["system"]) for r in other)
        raise JudgeMismatch(
            f"{len(other)} earlier rows were scored by other judges ({other[0][FINGERPRINTS]}, this run: {stamp}): "
            f"{names}. A changed judge scores every row again: run all row groups (no --only)"
        )
    judged = [c.column for c in JUDGES]
    return [
        dict(r, **{UNVERIFIED: True}) if not r.get(FINGERPRINTS) and any(r.get(c) is not None for c in judged) else r
        for r in earlier
    ]


def note(result: dict) -> str:
    """The markdown note on the judges' columns ('' when they did not run)."""
    judges = result.get("settings", {}).get("judges")
    if not judges:
        return ""
    return (
        f"\nBM25 judge / MiniLM judge: % of the texts whose own person ranks first among the {judges['pool']} "
        "evaluated people's full public bodies (retrieval attackers no anonymizer uses; "
        "textanon_eval.retrieval_attack).\n"
    )


def plot(result: dict, path: Path) -> None:
    """TPI against the judges' re-identification rates (one panel per judge), the manual anonymization and
    the search sweep marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in result["rows"] if r.get("bm25_reid") is not None]
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.5), sharey=True)
    for ax, column, title in zip(axes, ("bm25_reid", "dense_reid"), ("BM25 judge", "MiniLM judge")):
        sweep = [r for r in rows if r["system"].startswith("search sweep")]
        ax.scatter([r[column] for r in sweep], [r["tpi"] for r in sweep], s=12, color="tab:green", label="search sweep")
        for r in rows:
            if r["system"].startswith(("search sweep", "textanon t=")):
                continue
            color = "tab:red" if r["system"].startswith("manual") else "tab:blue"
            ax.scatter(r[column], r["tpi"], s=18, color=color)
            ax.annotate(r["system"], (r[column], r["tpi"]), fontsize=6, xytext=(3, 3), textcoords="offset points")
        ax.set_xlabel(f"{title}: % re-identified at rank 1  →  less private")
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("TPI, word-frequency IC  →  more useful")
    fig.suptitle(f"Privacy (retrieval judges) vs utility, {Path(result['settings']['data']).name}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
