"""Detection helpers of the recognizer: rules, identifier formats, the gazetteer, the protected person's name and the
normalized view of odd text forms."""
