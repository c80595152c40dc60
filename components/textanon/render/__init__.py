"""Rendering the decision: masks and regions, operators, pseudonyms, the reversible mapping and output records."""
