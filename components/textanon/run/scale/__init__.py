"""Running textanon on more than one machine: :mod:`textanon.run.scale.ray_engine` (Ray Data, ``--engine ray``)."""
