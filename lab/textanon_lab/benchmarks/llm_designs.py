"""``bench-llm``: anonymize WikiActors abstracts with each LLM prompt design and record costs.

Per design: seconds per document, prompt/generation tokens per document, share of returned strings
that were hallucinated (not found in the text), share of non-space characters masked, parse and
model failures. The anonymized texts go to one JSON file ``{design: {name: anonymized_text}}`` for
the TPI/TRIR evaluators. Also runnable without the typer CLI:
``python -m textanon_lab.benchmarks.llm_designs --input ... --design all``.
"""

import argparse
import json
import os
import statistics
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import spacy

from textanon.extensions import LLM_SPANS_KEY
from textanon.io.datasets.records import Record
from textanon.io.datasets.wikiactors import WikiActor, evaluated, read_wikiactors
from textanon.llm.prompts import prompt_names
from textanon.llm.task import STATS_KEY
from textanon.run.runner import pipe_docs
from textanon_eval.provenance import write_metrics

DEFAULT_ANONYMIZATIONS = Path("corpus/llm_anonymizations_wikiactors_50.json")
DEFAULT_TABLE = Path("metrics/llm_designs.md")


def run_design(
    records: List[WikiActor],
    design: str,
    max_new_tokens: int = 128,
    num_threads: Optional[int] = 1,
    cache_dir: Optional[str] = None,
    model: Optional[Dict] = None,
    chunk_size: int = 3000,
    log=print,
) -> Dict:
    """Anonymize ``records`` with the LLM anonymizer on prompt ``design`` (the offline SmolLM2 unless ``model``);
    returns ``{"design", "summary", "per_doc", "texts"}``: counts and timings per document, never document text."""

    model_cfg = model or {
        "@llm_models": "textanon.SmolLM2Chat.v1",
        "max_new_tokens": max_new_tokens,
        "num_threads": num_threads,
    }
    nlp = spacy.blank("en")
    component_name = "textanon_llm_anonymizer"
    component = nlp.add_pipe(
        component_name,
        config={
            "design": design,
            "model": model_cfg,
            "cache_dir": cache_dir,
            "chunk_size": chunk_size,
            "cache_batch_size": 1,
        },
    )
    usage = getattr(component.model, "usage", None)
    per_doc, texts = [], {}
    timings: Dict[str, float] = {}  # seconds in the component, summed over the documents done so far
    inputs = [Record(id=r.name, text=r.original, target=r.name) for r in records]
    docs = pipe_docs(nlp, inputs, batch_size=1, timings=timings)
    for i, record in enumerate(records):
        before = dict(usage) if usage is not None else {}
        spent = timings.get(component_name, 0.0)
        doc = next(docs)  # this record, through the LLM anonymizer
        seconds = timings[component_name] - spent
        stats = dict(doc.user_data.get(STATS_KEY, {}))
        row = {
            "seconds": seconds,
            **{
                k: stats.get(k)
                for k in (
                    "chunks",
                    "returned",
                    "matched",
                    "hallucinated",
                    "ignored",
                    "parse_failures",
                    "truncated_replies",
                    "unmatched_replies",
                    "model_failures",
                    "fallback_chunks",
                    "floor_spans",
                    "spans",
                    "masked_chars",
                    "text_chars",
                )
            },
        }
        llm_chars = sum(len("".join(s.text.split())) for s in doc.spans[LLM_SPANS_KEY] if s._.source == "llm")
        row["llm_masked_chars"] = llm_chars
        if usage is not None:
            row["prompt_tokens"] = usage["prompt_tokens"] - before.get("prompt_tokens", 0)
            row["completion_tokens"] = usage["completion_tokens"] - before.get("completion_tokens", 0)
            row["model_calls"] = usage["calls"] - before.get("calls", 0)
        per_doc.append(row)
        texts[record.name] = doc._.anonymized_text
        log(
            f"[{design}] {i + 1}/{len(records)} {seconds:.1f}s returned={row['returned']} "
            f"hallucinated={row['hallucinated']} masked={row['masked_chars']}/{row['text_chars']}"
        )
    component.flush_cache()
    return {"design": design, "summary": summarize(per_doc), "per_doc": per_doc, "texts": texts}


def summarize(rows: Sequence[Dict]) -> Dict:
    """Means per document (seconds, tokens, strings) and totals (failures, fallbacks) of :func:`run_design` rows."""

    def mean(key):
        values = [r[key] for r in rows if r.get(key) is not None]
        return statistics.fmean(values) if values else None

    returned = sum(r.get("returned") or 0 for r in rows)
    hallucinated = sum(r.get("hallucinated") or 0 for r in rows)
    text_chars = sum(r.get("text_chars") or 0 for r in rows)
    return {
        "docs": len(rows),
        "seconds_per_doc": mean("seconds"),
        "prompt_tokens_per_doc": mean("prompt_tokens"),
        "completion_tokens_per_doc": mean("completion_tokens"),
        "strings_returned_per_doc": mean("returned"),
        "hallucinated_share": hallucinated / returned if returned else None,
        "masked_char_share": sum(r.get("masked_chars") or 0 for r in rows) / text_chars if text_chars else None,
        "llm_only_masked_char_share": (
            sum(r.get("llm_masked_chars") or 0 for r in rows) / text_chars if text_chars else None
        ),
        "parse_failures": sum(r.get("parse_failures") or 0 for r in rows),
        "truncated_replies": sum(r.get("truncated_replies") or 0 for r in rows),
        "unmatched_replies": sum(r.get("unmatched_replies") or 0 for r in rows),
        "model_failures": sum(r.get("model_failures") or 0 for r in rows),
        "fallback_chunks": sum(r.get("fallback_chunks") or 0 for r in rows),
        "docs_with_no_llm_string_matched": sum(1 for r in rows if not r.get("matched")),
    }


def run_bench(
    input_path: Path,
    designs: Sequence[str],
    output: Optional[Path] = None,
    anonymizations: Path = DEFAULT_ANONYMIZATIONS,
    limit: int = 0,
    max_new_tokens: int = 128,
    num_threads: Optional[int] = 1,
    cache_dir: Optional[str] = None,
    model: Optional[Dict] = None,
) -> Dict[str, Dict]:
    """Run each design; write ``output`` (or metrics/llm_<design>.json) and update ``anonymizations``."""
    records = evaluated(read_wikiactors(input_path))
    if limit:
        records = records[:limit]
    if list(designs) == ["all"]:
        designs = prompt_names()
    results = {}
    for design in designs:
        result = run_design(
            records, design, max_new_tokens=max_new_tokens, num_threads=num_threads, cache_dir=cache_dir, model=model
        )
        model_name = json.dumps(model, sort_keys=True) if model else "SmolLM2-135M-Instruct (GGUF Q4_1 -> float32, CPU)"
        result["settings"] = {
            "input": str(input_path),
            "model": model_name,
            "decoding": "greedy, reply prefix '[', stop at JSON end or after 4 repeated items",
            "max_new_tokens": max_new_tokens,
            "num_threads": num_threads,
            "docs": len(records),
            "limit": limit,
            "target_name_masked": True,
            "load_average_1m_at_end": _loadavg(),
        }
        out = Path(output) if output and len(designs) == 1 else Path(f"metrics/llm_{design}.json")
        out.parent.mkdir(parents=True, exist_ok=True)
        texts = result.pop("texts")
        write_metrics(out, result)
        anonymizations = Path(anonymizations)
        merged = json.loads(anonymizations.read_text(encoding="utf8")) if anonymizations.exists() else {}
        merged[design] = texts
        anonymizations.parent.mkdir(parents=True, exist_ok=True)
        anonymizations.write_text(json.dumps(merged, indent=1, ensure_ascii=False), encoding="utf8")
        results[design] = result["summary"]
        print(json.dumps({design: result["summary"]}, indent=2), flush=True)
    write_table(DEFAULT_TABLE)
    return results


def _loadavg() -> Optional[float]:
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None


def write_table(path: Path = DEFAULT_TABLE, metrics_dir: Path = Path("metrics")) -> str:
    """Markdown table of every ``metrics/llm_<design>.json`` (designs in the shipped order)."""
    rows = []
    for design in prompt_names():
        file = Path(metrics_dir) / f"llm_{design}.json"
        if not file.exists():
            continue
        data = json.loads(file.read_text(encoding="utf8"))
        s, cfg = data["summary"], data.get("settings", {})

        def fmt(value, spec="{:.1f}"):
            return "–" if value is None else spec.format(value)

        rows.append(
            f"| {design} | {s['docs']} | {fmt(s['seconds_per_doc'])} "
            f"| {fmt(s['prompt_tokens_per_doc'], '{:.0f}')} "
            f"| {fmt(s['completion_tokens_per_doc'], '{:.0f}')} | {fmt(s['strings_returned_per_doc'])} "
            f"| {fmt(s['hallucinated_share'], '{:.0%}')} | {s['parse_failures']} "
            f"| {s.get('truncated_replies', '–')} | {s.get('unmatched_replies', '–')} "
            f"| {s.get('fallback_chunks', '–')} "
            f"| {fmt(s['llm_only_masked_char_share'], '{:.1%}')} | {fmt(s['masked_char_share'], '{:.1%}')} "
            f"| {s['docs_with_no_llm_string_matched']} | {cfg.get('max_new_tokens', '–')} |"
        )
    head = (
        "| design | docs | s/doc | prompt tok/doc | generated tok/doc | strings/doc | hallucinated | "
        "parse failures | truncated | matched nothing | fallbacks | chars masked (LLM) | chars masked (all) | "
        "docs w/o match | max_new_tokens |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    )
    text = (
        "# LLM prompt designs on WikiActors 50 (SmolLM2-135M-Instruct, CPU, 1 thread)\n\n"
        "Written by `python -m textanon lab bench-llm`. *hallucinated*: share of returned strings found nowhere "
        "in the text. *truncated*: replies cut at the token limit or looping; *matched nothing*: replies "
        "matching no text where PII is detected; *fallbacks*: chunks masked by the fallback policy instead. "
        "*chars masked (LLM)*: non-space characters masked by strings of the model; *(all)*: also "
        "the floor (rule detections, the target's name) and the fallbacks.\n\n" + head + "\n" + "\n".join(rows) + "\n"
    )
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(text, encoding="utf8")
    return text


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Command line of :func:`run_bench` (``python -m textanon_lab.benchmarks.llm_designs --input FILE``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True, type=Path)
    parser.add_argument("--design", action="append", default=None, help="design name (repeatable) or 'all'")
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--anonymizations", type=Path, default=DEFAULT_ANONYMIZATIONS)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--num-threads", type=int, default=1)
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument(
        "--model",
        default=None,
        help="spacy-llm model config as JSON, e.g. "
        '\'{"@llm_models": "textanon.OpenAICompatible.v1", "model": "qwen2.5-7b-instruct"}\'',
    )
    args = parser.parse_args(argv)
    run_bench(
        args.input,
        args.design or ["all"],
        args.output,
        args.anonymizations,
        args.limit,
        args.max_new_tokens,
        args.num_threads,
        args.cache_dir,
        json.loads(args.model) if args.model else None,
    )


if __name__ == "__main__":
    main()
