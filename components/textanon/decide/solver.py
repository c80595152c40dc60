"""The CP-SAT solver both decisions use (the optimizer's masking, :mod:`textanon.pipes.optimizer`; the choice among
keeping, generalizing and suppressing, :mod:`textanon.decide.generalization.choice`).

One worker: the answer does not depend on thread timing, and a document's decision is small (a few hundred booleans).
Probing and symmetry detection are off: the models are sets of clauses over at most a few thousand booleans, which
presolve and search solve to optimality without them, and they were most of CP-SAT's time (the 77 benchmark
documents, 50 abstracts and 27 court cases: 0.34 -> 0.24 s with the generalizing fast profile, 0.29 -> 0.20 s
suppressing; the same optimal solutions for every document of both, and for 83 of the search profile's 84 models,
the 84th another solution of the same cost; docs/speed.md). Whatever the parameters, a solution is optimal when the
status says OPTIMAL; at the time limit the caller masks more (a feasible solution, or every risky entity)."""

from ortools.sat.python import cp_model


def new_solver(time_limit_s: float) -> cp_model.CpSolver:
    """A CP-SAT solver for one document's decision, stopped after ``time_limit_s`` seconds (module docstring)."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit_s)
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.symmetry_level = 0
    return solver
