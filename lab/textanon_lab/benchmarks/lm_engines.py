"""Forward-pass engines of the SmolLM2 scorer compared (``bench-engines``): speed and agreement with the reference.

The engines (:data:`textanon.risk.language_models.engine.ENGINES`) score the rows that
:class:`~textanon.risk.language_models.causal.CausalLM` builds (windows of ``window`` tokens with ``context`` tokens of
left context, batched by length) for the gold entity mentions of the echr-dev court cases:

* agreement: every case cut to its first ``echr_windows`` windows (a subset, to keep the run short), scored once
  by each engine; per mention, IC = -sum of its token log-probs; Spearman rank correlation of each engine's ICs
  with the torch fp32 reference's, and the max / mean absolute difference of the token log-probs;
* speed: the rows of the first ``speed_docs`` of those cases and of ``wikiactors_docs`` WikiActors abstracts (every
  token of the abstract requested), scored by every engine at 1 and 2 intra-op threads, ``repeats`` times
  interleaved (the order rotates): median CPU seconds (``time.process_time``, all threads of the process) and wall
  seconds per 1,000 input tokens (padding excluded). The machine is shared: the load average is recorded.
"""

import os
import statistics
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
from scipy.stats import spearmanr

from textanon.io.datasets.tab import load_tab
from textanon.io.datasets.wikiactors import evaluated, read_wikiactors
from textanon.risk.language_models import smollm2
from textanon.risk.language_models.engine import create_engine
from textanon_eval.provenance import write_metrics

Calls = List[Tuple[List[List[int]], List[np.ndarray]]]


def _cut(text: str, offsets: Sequence[Tuple[int, int]], n_tokens: int) -> str:
    """``text`` up to the end of its ``n_tokens``-th token."""
    return text if n_tokens >= len(offsets) else text[: offsets[n_tokens - 1][1]]


def echr_requests(lm, path: Path, n_windows: int) -> List[Tuple[str, List[Tuple[int, int]]]]:
    """(text, gold mention spans) of each echr-dev case, cut to its first ``n_windows`` scoring windows."""
    tokenizer, _ = lm._load()
    n_tokens = n_windows * (lm.window - 1 - lm.context)
    out = []
    for gold in load_tab(path, require_identifiers=False):
        offsets = tokenizer(gold.text, add_special_tokens=False, return_offsets_mapping=True)["offset_mapping"]
        text = _cut(gold.text, offsets, n_tokens)
        mentions = next(iter(gold.annotations.values()), [])
        spans = sorted({(m.start, m.end) for m in mentions if m.end <= len(text) and m.end > m.start})
        out.append((text, spans))
    return out


def wikiactors_requests(path: Path, n_docs: int) -> List[Tuple[str, List[Tuple[int, int]]]]:
    """(abstract, the whole abstract as one span) of the first ``n_docs`` WikiActors records."""
    records = [r for r in evaluated(read_wikiactors(path)) if r.original][:n_docs]
    return [(r.original, [(0, len(r.original))]) for r in records]


def _n_tokens(calls: Calls) -> int:
    return sum(len(row) for rows, _ in calls for row in rows)


def _run(engine, calls: Calls) -> Tuple[List[np.ndarray], float, float]:
    """(log-probs of every row, CPU seconds, wall seconds) of scoring ``calls`` with ``engine``."""
    out: List[np.ndarray] = []
    cpu, wall = time.process_time(), time.perf_counter()
    for rows, positions in calls:
        out.extend(engine.row_logprobs(rows, positions))
    return out, time.process_time() - cpu, time.perf_counter() - wall


def score_spans(lm, engine, requests) -> Tuple[List[np.ndarray], float, float]:
    """(token log-probs of every span of ``requests`` in order, CPU s, wall s) scored by ``lm`` with ``engine``
    (through :meth:`CausalLM.span_token_logprobs_many`, the pipeline's path; nothing cached before)."""
    lm.use_engine(engine)
    cpu, wall = time.process_time(), time.perf_counter()
    per_doc = lm.span_token_logprobs_many(requests)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return [arr for doc in per_doc for arr in doc], cpu, wall


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman rank correlation (average ranks for ties)."""
    return float(spearmanr(a, b).statistic)


def bench_engines(
    echr: Path,
    wikiactors: Path,
    engines: Sequence[str] = ("torch-fp32", "torch-int8", "ctranslate2-int8", "ctranslate2-fp32"),
    threads: Sequence[int] = (1, 2),
    echr_windows: int = 2,
    speed_docs: int = 6,
    wikiactors_docs: int = 10,
    repeats: int = 3,
) -> Dict:
    """Speed and agreement of each engine (see the module docstring); the first engine is the reference."""
    import torch

    load_before = os.getloadavg()
    lm = smollm2()
    tokenizer, model = lm._load()
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    requests = echr_requests(lm, echr, echr_windows)
    agree_calls = lm.engine_calls(requests)
    speed_requests = requests[:speed_docs] + wikiactors_requests(wikiactors, wikiactors_docs)
    speed_calls = lm.engine_calls(speed_requests)

    made: Dict[Tuple[str, int], object] = {}
    fallbacks: Dict[str, Optional[str]] = {}
    for name in engines:
        for n in threads:
            torch.set_num_threads(n)
            eng, fallback = create_engine(name, tokenizer, model, pad, "cpu", lm.name_or_path, lm.gguf_file, threads=n)
            fallbacks[name] = fallback
            made[(name, n)] = eng
            eng.row_logprobs(*speed_calls[0])  # warm-up (allocations, kernel selection)

    # agreement: one pass per engine over the echr subset (1 thread)
    torch.set_num_threads(1)
    agreement, ref_ics, ref_lps, agree_time = {}, None, None, {}
    for name in engines:
        spans, cpu, wall = score_spans(lm, made[(name, 1)], requests)
        agree_time[name] = {"cpu_s": round(cpu, 2), "wall_s": round(wall, 2)}
        spans = [arr for arr in spans if len(arr)]
        ics = np.asarray([-float(arr.sum()) for arr in spans])
        flat = np.concatenate(spans)
        if ref_ics is None:
            ref_ics, ref_lps = ics, flat
        diff = np.abs(flat - ref_lps)
        agreement[name] = {
            "spearman_span_ic": round(spearman(ref_ics, ics), 4),
            "max_abs_token_diff": float(f"{diff.max():.4g}"),
            "mean_abs_token_diff": float(f"{diff.mean():.4g}"),
            "mean_abs_span_ic_diff": float(f"{np.abs(ics - ref_ics).mean():.4g}"),
        }

    # speed: interleaved repeats, order rotating
    order = [(name, n) for n in threads for name in engines]
    samples: Dict[Tuple[str, int], List[Tuple[float, float]]] = {k: [] for k in order}
    for rep in range(repeats):
        shift = rep % len(order)
        for key in order[shift:] + order[:shift]:
            torch.set_num_threads(key[1])
            _, cpu, wall = _run(made[key], speed_calls)
            samples[key].append((cpu, wall))
    n_speed = _n_tokens(speed_calls)
    speed = {}
    for (name, n), runs in samples.items():
        cpu = statistics.median(c for c, _ in runs) / n_speed * 1000
        wall = statistics.median(w for _, w in runs) / n_speed * 1000
        speed.setdefault(name, {})[f"threads_{n}"] = {
            "cpu_s_per_1k_tokens": round(cpu, 3),
            "wall_s_per_1k_tokens": round(wall, 3),
        }
    ref = engines[0]
    for name in engines:
        for key, row in speed[name].items():
            base = speed[ref][key]
            row["cpu_speedup_vs_reference"] = round(base["cpu_s_per_1k_tokens"] / row["cpu_s_per_1k_tokens"], 2)
            row["wall_speedup_vs_reference"] = round(base["wall_s_per_1k_tokens"] / row["wall_s_per_1k_tokens"], 2)

    lm.use_engine(None)  # the shared backend goes back to its own engine
    versions = {"torch": torch.__version__}
    try:
        import ctranslate2

        versions["ctranslate2"] = ctranslate2.__version__
    except ImportError:
        versions["ctranslate2"] = None

    return {
        "reference": ref,
        "engines": {
            name: {
                "agreement": agreement[name],
                "speed": speed[name],
                "agreement_pass": agree_time[name],
                "fallback": fallbacks[name],
            }
            for name in engines
        },
        "bar": {"spearman_span_ic": 0.95},
        "data": {
            "agreement": f"{echr.name}: {len(requests)} cases, each cut to its first {echr_windows} windows; spans = "
            f"gold entity mentions (first annotator, distinct offsets), {len(ref_ics)} with tokens; "
            f"{_n_tokens(agree_calls)} input tokens",
            "speed": f"rows of the first {speed_docs} of those cases + {wikiactors_docs} WikiActors abstracts "
            f"({wikiactors.name}, every token), {_n_tokens(speed_calls)} input tokens, {len(speed_calls)} engine "
            f"calls; {repeats} interleaved repeats, medians",
            "rows": f"CausalLM windows: window {lm.window}, context {lm.context}, batch_size {lm.batch_size}",
        },
        "machine": {
            "cores": os.cpu_count(),
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
            "note": "shared machine (other agents running); CPU seconds are less affected by the load than wall",
        },
        "versions": versions,
    }


def to_markdown(results: Dict) -> str:
    """Markdown table of :func:`bench_engines` results."""
    lines = [
        "| engine | threads | CPU s / 1k tokens | wall s / 1k tokens | speed-up (CPU) | speed-up (wall) "
        "| Spearman span IC | max / mean abs token diff |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, row in results["engines"].items():
        agree = row["agreement"]
        for key, sp in row["speed"].items():
            lines.append(
                f"| {name}{' (fallback)' if row['fallback'] else ''} | {key.split('_')[1]} "
                f"| {sp['cpu_s_per_1k_tokens']} | {sp['wall_s_per_1k_tokens']} "
                f"| {sp['cpu_speedup_vs_reference']}x | {sp['wall_speedup_vs_reference']}x "
                f"| {agree['spearman_span_ic']} | {agree['max_abs_token_diff']} / {agree['mean_abs_token_diff']} |"
            )
    data, machine = results["data"], results["machine"]
    lines += [
        "",
        f"Agreement: {data['agreement']}. Speed: {data['speed']}. {data['rows']}.",
        f"Machine: {machine['cores']} cores, load average {machine['load_average_before']} before, "
        f"{machine['load_average_after']} after ({machine['note']}).",
    ]
    return "\n".join(lines) + "\n"


def write_bench_engines(output: Path, **kwargs) -> Tuple[Dict, str]:
    """Run :func:`bench_engines`, write the JSON (with provenance) to ``output`` and the table beside it (.md)."""
    results = bench_engines(**kwargs)
    write_metrics(output, results)
    table = to_markdown(results)
    Path(output).with_suffix(".md").write_text(table, encoding="utf-8")
    return results, table
