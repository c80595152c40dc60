"""Start-up: the time a user waits for the first anonymized record of one short document (a benchmark, not a test).

Three figures, each in a fresh process (``repeats`` times, medians), with the Python of the environment under test
(``--python``: the project's virtual environment, or a user's environment with only the two wheels installed, as
``make check-wheel`` builds it — an environment with more packages pays for their spaCy entry points at load):

* ``load_s``: ``import spacy`` + ``spacy.load(model)``;
* ``first_record_s``: the same + the pipeline on one short document (a language model is loaded on first use);
* ``cli_s``: the whole ``textanon anonymize ONE.txt -o OUT`` command, wall clock.
"""

import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Dict, Optional

from tqdm import tqdm

SHORT_DOCUMENT = (
    "The applicant, Mr Ion Rusu, was born in 1961 and lives in Balti. He is a veterinary surgeon. On 3 May 2009 "
    "he lodged application no. 12345/09 with the Court."
)
TARGET = "Ion Rusu"
_PROBE = """
import sys, time, json
t0 = time.perf_counter()
import spacy
nlp = spacy.load(sys.argv[1])
load = time.perf_counter() - t0
doc = nlp.make_doc(sys.argv[2])
doc._.target = sys.argv[3]
text = nlp(doc)._.anonymized_text
print(json.dumps({"load_s": load, "first_record_s": time.perf_counter() - t0, "masked": text != sys.argv[2]}))
"""


def _probe(python: str, model: str) -> Dict[str, float]:
    out = subprocess.run(
        [python, "-c", _PROBE, model, SHORT_DOCUMENT, TARGET], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _cli(python: str, model: str, folder: Path) -> float:
    source, output = folder / "one.txt", folder / "one.jsonl"
    source.write_text(SHORT_DOCUMENT, encoding="utf-8")
    output.unlink(missing_ok=True)
    cmd = [python, "-m", "textanon", "-q", "anonymize", str(source), "-o", str(output), "--model", model]
    t0 = time.perf_counter()
    subprocess.run([*cmd, "--target", TARGET], capture_output=True, text=True, check=True)
    return time.perf_counter() - t0


def measure_startup(python: str, models: Dict[str, str], repeats: int = 3) -> Dict[str, dict]:
    """``{label: {load_s, first_record_s, cli_s, repeats}}`` for each pipeline of ``models`` (label -> package
    name or folder), medians of ``repeats`` interleaved fresh processes run with ``python``."""
    runs: Dict[str, Dict[str, list]] = {label: {"load_s": [], "first_record_s": [], "cli_s": []} for label in models}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in tqdm(range(repeats), desc="start-up", unit="repeat"):
            for label, model in models.items():
                probe = _probe(python, model)
                if not probe.pop("masked"):
                    raise RuntimeError(f"{label}: the short document came out unchanged")
                for key, value in probe.items():
                    runs[label][key].append(value)
                runs[label]["cli_s"].append(_cli(python, model, Path(tmp)))
    return {
        label: {key: round(statistics.median(values), 2) for key, values in r.items()} | {"repeats": repeats}
        for label, r in runs.items()
    }


def startup_markdown(results: Dict[str, dict], python: Optional[str] = None) -> str:
    """The start-up table (one row per pipeline)."""
    lines = [
        "| pipeline | `spacy.load` (s) | first record (s) | CLI on one document (s) |",
        "|---|---|---|---|",
    ]
    for label, r in results.items():
        lines.append(f"| {label} | {r['load_s']} | {r['first_record_s']} | {r['cli_s']} |")
    repeats = next(iter(results.values()))["repeats"] if results else 0
    where = f" with `{python}`" if python else ""
    lines += [
        "",
        f"Start-up: medians of {repeats} fresh processes{where}; `spacy.load` includes `import spacy`; the first "
        "record adds the pipeline on one short document (a language model loads on first use); the CLI figure is "
        "the whole `textanon anonymize` command on that document, wall clock.",
    ]
    return "\n".join(lines) + "\n"
