"""The decision machinery: masking units (:mod:`textanon.decide.units`) and truthful generalization
(:mod:`textanon.decide.generalization`), under the optimizer component (:mod:`textanon.pipes.optimizer`)."""
