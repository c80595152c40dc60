"""Running textanon on more than one machine: :mod:`textanon.scale.ray_engine` (Ray Data, ``--engine ray``)."""
