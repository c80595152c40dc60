"""The CP-SAT models of one profile on the 77 benchmark documents (50 evaluated abstracts with their target, 27
echr-dev cases without), solved again with the solver's default probing and symmetry detection and with
``textanon.decide.solver.new_solver``'s (both off): seconds in CP-SAT, and how many models get the same solution and
the same objective. Ad hoc (docs/speed.md, runs 267 and 268); decides nothing, writes nothing.
``NLTK_DATA=assets/nltk_data python docs/scripts/cpsat_parameters.py fast [suppression]`` or ``... search`` (over
``corpus/index_bk25``) from the repository root.
"""

import json
import sys
import time
from pathlib import Path

from ortools.sat.python import cp_model

from textanon.decide.solver import new_solver
from textanon.io.datasets.records import Record
from textanon.profiles import load
from textanon.run.runner import pipe_docs

if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "fast"
    replacement = sys.argv[2] if len(sys.argv) > 2 else None
    models = []
    solve = cp_model.CpSolver.solve

    def kept(self, model, *args, **kwargs):  # every model the pipeline solves, copied
        models.append(model.clone())
        return solve(self, model, *args, **kwargs)

    cp_model.CpSolver.solve = kept
    evaluated = json.loads(Path("../shared/data/wikiactors/WikiActors_50_eval.json").read_text(encoding="utf8"))
    cases = json.loads(Path("../shared/data/echr-dev/echr_dev_entities.json").read_text(encoding="utf8"))
    records = [Record(id=r["name"], text=r["original_abstract"], target=r["name"]) for r in evaluated]
    records += [Record(id=c["doc_id"], text=c["text"], target=None) for c in cases]
    nlp = load(name, replacement=replacement, index="corpus/index_bk25" if name == "search" else None)
    list(pipe_docs(nlp, records, batch_size=nlp.batch_size))
    cp_model.CpSolver.solve = solve

    def run(solver, model):
        t = time.perf_counter()
        status = solver.solve(model)
        return time.perf_counter() - t, status, solver.objective_value, tuple(solver.response_proto.solution)

    def default_solver():
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = 10.0
        solver.parameters.num_workers = 1
        return solver

    before = [run(default_solver(), m) for m in models]
    after = [run(new_solver(10.0), m) for m in models]
    same = sum(a[3] == b[3] for a, b in zip(before, after))
    same_cost = sum(abs(a[2] - b[2]) < 1e-9 for a, b in zip(before, after))
    optimal = sum(b[1] == cp_model.OPTIMAL for b in after)
    print(
        f"{name} {replacement or ''}: {len(models)} models; CP-SAT {sum(a[0] for a in before):.3f} s -> "
        f"{sum(b[0] for b in after):.3f} s; same solution {same}, same objective {same_cost}, optimal {optimal}"
    )
