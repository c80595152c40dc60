"""Choosing settings (the risk threshold) on data that is never evaluated."""
