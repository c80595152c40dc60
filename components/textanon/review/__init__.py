"""Review of anonymization decisions: the HTML report and displaCy colours."""

from textanon.review.colors import LABEL_COLORS, displacy_options, render_spans
from textanon.review.report import ReportWriter, write_report

__all__ = ["LABEL_COLORS", "displacy_options", "render_spans", "ReportWriter", "write_report"]
