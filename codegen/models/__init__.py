"""Stage 2, models: JSON Schema -> pydantic v2 modules (datamodel-code-generator, then rewrites)."""
