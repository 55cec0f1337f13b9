"""Stage 1, inputs: reading and validating schemas, spec tables and document corpora."""
