"""Settings of components and models declared once: the constructor's signature gives the config defaults and the
factory (:mod:`textanon.settings.signatures`), and the settings are serialized with the pipeline
(:mod:`textanon.settings.serialization`)."""
