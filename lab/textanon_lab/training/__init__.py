"""Training the privacy-enhanced entity model: silver corpus, spaCy training, echr-dev evaluation."""
