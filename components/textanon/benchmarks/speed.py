"""Throughput and peak memory of the pipeline on WikiActors abstracts and echr-dev court cases."""

import resource
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from tqdm import tqdm

from ..datasets.tab import load_tab
from ..datasets.wikiactors import evaluated, read_wikiactors


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_wikiactors(path: Path) -> List[Tuple[str, str, Optional[str]]]:
    """(id, original abstract, target name) for every record that has an abstract."""
    return [(r.name, r.original, r.name) for r in evaluated(read_wikiactors(path))]


def load_echr(path: Path) -> List[Tuple[str, str, Optional[str]]]:
    """(id, text, no target) for every court case of a TAB file (e.g. the echr-dev entity layer)."""
    return [(g.doc_id, g.text, None) for g in load_tab(path, require_identifiers=False)]


def time_corpus(nlp, docs: List[Tuple[str, str, Optional[str]]], name: str) -> Dict:
    """Anonymize ``docs`` one by one, timing every component separately."""
    per_component = {pipe_name: 0.0 for pipe_name in nlp.pipe_names}
    n_tokens = n_chars = 0
    start = time.perf_counter()
    for _doc_id, text, target in tqdm(docs, desc=name, unit="doc"):
        t0 = time.perf_counter()
        doc = nlp.make_doc(text)
        per_component.setdefault("tokenizer", 0.0)
        per_component["tokenizer"] += time.perf_counter() - t0
        doc._.target = target
        for pipe_name, proc in nlp.pipeline:
            t0 = time.perf_counter()
            doc = proc(doc)
            per_component[pipe_name] += time.perf_counter() - t0
        n_tokens += len(doc)
        n_chars += len(text)
    elapsed = time.perf_counter() - start
    return {
        "docs": len(docs),
        "tokens": n_tokens,
        "chars": n_chars,
        "seconds": round(elapsed, 2),
        "docs_per_s": round(len(docs) / elapsed, 3),
        "tokens_per_s": round(n_tokens / elapsed, 1),
        "seconds_per_component": {k: round(v, 2) for k, v in per_component.items()},
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


def run(model: str, wikiactors: Path, echr: Path, long_doc_chars: int = 0) -> Dict:
    import spacy

    import textanon  # noqa: F401

    t0 = time.perf_counter()
    nlp = spacy.load(model)
    nlp("Warm-up: Mr Ion Rusu lives in Balti.")  # loads the language model weights
    load_s = time.perf_counter() - t0
    results = {"model": model, "pipeline": nlp.pipe_names, "load_seconds": round(load_s, 2), "corpora": {}}
    results["corpora"]["wikiactors_50_abstracts"] = time_corpus(nlp, load_wikiactors(wikiactors), "wikiactors")
    results["corpora"]["echr_dev_27"] = time_corpus(nlp, load_echr(echr), "echr-dev")
    if long_doc_chars:
        cases = [t for _, t, _ in load_echr(echr)]
        text = ("\n\n".join(cases) * (long_doc_chars // sum(map(len, cases)) + 1))[:long_doc_chars]
        results["corpora"][f"one_document_{long_doc_chars}_chars"] = time_corpus(nlp, [("long", text, None)], "long")
    import torch

    results["machine"] = {"torch_threads": torch.get_num_threads(), "device": "cpu"}
    results["peak_rss_mb"] = round(peak_rss_mb(), 1)
    return results


def to_markdown(results: Dict) -> str:
    lines = [
        "| corpus | docs | tokens | seconds | docs/s | tokens/s | peak RSS (MiB) |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, r in results["corpora"].items():
        lines.append(
            f"| {name} | {r['docs']} | {r['tokens']} | {r['seconds']} | {r['docs_per_s']} | {r['tokens_per_s']} "
            f"| {r['peak_rss_mb']} |"
        )
    lines.append("")
    lines.append(
        f"Model `{results['model']}` ({', '.join(results['pipeline'])}); load + warm-up {results['load_seconds']} s."
    )
    lines.append("")
    lines.append("Seconds per component:")
    lines.append("")
    comps = list(next(iter(results["corpora"].values()))["seconds_per_component"])
    lines.append("| corpus | " + " | ".join(comps) + " |")
    lines.append("|---|" + "---|" * len(comps))
    for name, r in results["corpora"].items():
        lines.append(f"| {name} | " + " | ".join(str(r["seconds_per_component"].get(c, 0)) for c in comps) + " |")
    return "\n".join(lines) + "\n"
