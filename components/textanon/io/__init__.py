"""Reading and progress: the readers of corpora and records (:mod:`textanon.io.datasets`) and the progress bars of the
commands (:mod:`textanon.io.progress`)."""
