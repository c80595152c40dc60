"""Risk estimates: the public-knowledge index (:mod:`textanon.risk.search`), language-model surprisal
(:mod:`textanon.risk.language_models`) and the risky combinations of entities (:mod:`textanon.risk.combinations`)."""
