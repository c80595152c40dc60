"""``bench-scale``: throughput of the Ray engine with 1, 2, … workers, and its outputs checked byte for byte against
the local engine's on the same input (the echr-dev cases in ``project.yml``)."""

import hashlib
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import spacy

import textanon  # noqa: F401
from textanon.io.datasets.records import read_records
from textanon.render.output import write_output
from textanon.run.runner import anonymize_records
from textanon.run.scale.ray_engine import PipelineSpec, ray_anonymize_records, ray_session
from textanon_eval.provenance import write_metrics


def _timed_write(records, path: Path) -> Dict:
    """Write ``records`` to ``path`` (``output.write_output``: as ``anonymize``), timing it; the seconds until the
    first record and in all, the counts and the file's SHA-256."""
    start = time.perf_counter()
    first: List[float] = []

    def clocked():
        for record in records:
            if not first:
                first.append(time.perf_counter() - start)
            yield record

    with open(path, "w", encoding="utf-8") as out:
        n_ok, n_err = write_output(clocked(), out)
    seconds = time.perf_counter() - start
    n = n_ok + n_err
    return {
        "records": n,
        "errors": n_err,
        "seconds": round(seconds, 2),
        "first_record_seconds": round(first[0], 2) if first else None,
        "docs_per_s": round(n / seconds, 4) if seconds else None,
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
    }


def run(
    input_path: Path,
    model: str,
    workers: Sequence[int],
    batch_size: int,
    outputs: Path,
    address: Optional[str] = None,
    local: bool = True,
) -> Dict:
    """Anonymize ``input_path`` with the local engine (``--n-process 1``, unless not ``local``) and then with the
    Ray engine for every count of ``workers``, each output written to ``outputs/`` and compared byte for byte with
    the local one; docs/s, the scaling efficiency ``docs/s(n) / (n × docs/s(1))``."""
    import ray

    outputs.mkdir(parents=True, exist_ok=True)
    results: Dict = {"input": str(input_path), "model": model, "batch_size": batch_size, "runs": {}}
    reference = None
    if local:
        start = time.perf_counter()
        nlp = spacy.load(model)
        results["local_load_seconds"] = round(time.perf_counter() - start, 2)
        path = outputs / "local.jsonl"
        run_ = _timed_write(anonymize_records(nlp, read_records(input_path), batch_size=batch_size), path)
        results["runs"]["local"] = run_ | {"engine": "local", "workers": 1}
        reference = path.read_bytes()
        del nlp
    with ray_session(address, num_cpus=None if address else max(workers)):
        results["ray_cluster_cpus"] = ray.cluster_resources().get("CPU")
        for n in workers:
            path = outputs / f"ray_{n}.jsonl"
            records = ray_anonymize_records(
                read_records(input_path), PipelineSpec(model), num_workers=n, batch_size=batch_size
            )
            run_ = _timed_write(records, path) | {"engine": "ray", "workers": n}
            if reference is not None:
                run_["identical_to_local"] = path.read_bytes() == reference
            results["runs"][f"ray_{n}"] = run_
    ray_runs = [r for r in results["runs"].values() if r["engine"] == "ray"]
    base = next((r for r in ray_runs if r["workers"] == 1), None)
    for r in ray_runs:
        if base and base["docs_per_s"]:
            r["speedup"] = round(r["docs_per_s"] / base["docs_per_s"], 3)
            r["efficiency"] = round(r["speedup"] / r["workers"], 3)
    if reference is not None:
        results["identical_to_local"] = all(r["identical_to_local"] for r in ray_runs)
    return results


def plot(results: Dict, path: Path) -> Path:
    """docs/s against the number of Ray workers, with the ideal linear scaling from 1 worker (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = sorted((r for r in results["runs"].values() if r["engine"] == "ray"), key=lambda r: r["workers"])
    xs, ys = [r["workers"] for r in runs], [r["docs_per_s"] for r in runs]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(xs, ys, "o-", label="Ray engine")
    if runs and runs[0]["workers"] == 1:
        ax.plot(xs, [ys[0] * x for x in xs], "--", color="grey", label="linear (ideal)")
    if "local" in results["runs"]:
        ax.axhline(results["runs"]["local"]["docs_per_s"], color="tab:orange", ls=":", label="local engine")
    ax.set_xlabel("workers (actors)")
    ax.set_ylabel("documents / s")
    ax.set_xticks(xs)
    ax.set_title(f"{Path(results['input']).name}, {results['model']}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def to_markdown(results: Dict) -> str:
    """One row per run: engine, workers, seconds, docs/s, speed-up, efficiency, identical to local."""
    lines = [
        "| run | workers | records | errors | seconds | first (s) | docs/s | speed-up | efficiency | identical |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results["runs"].items():
        cells = [
            name,
            r["workers"],
            r["records"],
            r["errors"],
            r["seconds"],
            r["first_record_seconds"],
            r["docs_per_s"],
            r.get("speedup", "-"),
            r.get("efficiency", "-"),
            {True: "yes", False: "NO"}.get(r.get("identical_to_local"), "-"),
        ]
        lines.append("| " + " | ".join(map(str, cells)) + " |")
    return "\n".join(lines) + "\n"


def bench_scale(
    input_path: Path, model: str, workers: Sequence[int], batch_size: int, output: Path, outputs: Path, **kwargs
) -> Tuple[Dict, str]:
    """``bench-scale``: :func:`run` (the anonymized outputs in the folder ``outputs``), then ``output`` (JSON with
    provenance), the table beside it (``.md``) and the plot (``.png``). Returns (results, table)."""
    output = Path(output)
    results = run(input_path, model, workers, batch_size, Path(outputs), **kwargs)
    write_metrics(output, results)
    table = to_markdown(results)
    output.with_suffix(".md").write_text(table, encoding="utf-8")
    plot(results, output.with_suffix(".png"))
    return results, table
