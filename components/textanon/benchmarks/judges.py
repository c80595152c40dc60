"""The retrieval judges' columns of the benchmark: who is re-identified by searching the public bodies.

For every row (systems run here, published anonymizations, LLM designs), the anonymized texts are ranked
against the **full** public bodies of the evaluated people by the two attackers of
:mod:`textanon.evaluation.retrieval_attack` — BM25 (``bm25_reid``) and MiniLM chunk embeddings
(``dense_reid``) — and the share re-identified at rank 1 is recorded (%). No anonymizer uses them.
"""

from pathlib import Path
from typing import Dict, List, Optional


def add_judge_columns(
    records, systems: Dict[str, dict], rows: List[dict], cache_dir: Optional[Path] = None, encoder=None
) -> dict:
    """Set ``bm25_reid`` and ``dense_reid`` (% of the row's texts whose own person ranks first) on every row
    of ``rows`` (in place), from ``systems[row]["texts"]``; returns what the result records about the judges.
    ``cache_dir``: where the body embeddings are kept (default: the textanon cache); ``encoder``: the
    sentence encoder (default MiniLM, :class:`textanon.evaluation.embeddings.Encoder`)."""
    from ..evaluation.retrieval_attack import DenseAttack, LexicalAttack, reidentification

    if cache_dir is None:
        from ..language_models.loading import cache_dir as base_cache

        cache_dir = base_cache() / "retrieval"
    bodies = {r.name: r.background for r in records if r.background}
    judges = {
        "bm25_reid": LexicalAttack(bodies),
        "dense_reid": DenseAttack(bodies, encoder=encoder, cache_dir=cache_dir),
    }
    for row in rows:
        texts = {n: t for n, t in systems[row["system"]]["texts"].items() if n in bodies}
        for column, judge in judges.items():
            row[column] = reidentification(judge, texts)["rate"] if texts else None
    dense = judges["dense_reid"]
    return {
        "pool": len(bodies),
        "bodies": "the full public_knowledge of every evaluated record",
        "bm25_reid": "BM25 (k1 1.5, b 0.75) over the bodies, lower-case words minus English stop words; % of texts "
        "whose own person ranks first",
        "dense_reid": f"{dense.encoder.name}: highest cosine between any {dense.chunk_words}-word chunk of the text "
        f"and any chunk of a person's body ({dense.n_chunks} body chunks); % ranked first",
    }


def note(result: dict) -> str:
    """The markdown note on the judges' columns ('' when they did not run)."""
    judges = result.get("settings", {}).get("judges")
    if not judges:
        return ""
    return (
        f"\nBM25 judge / MiniLM judge: % of the texts whose own person ranks first among the {judges['pool']} "
        "evaluated people's full public bodies (retrieval attackers no anonymizer uses; "
        "textanon.evaluation.retrieval_attack).\n"
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
