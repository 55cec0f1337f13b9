"""Stage 5, release: API snapshot, semver classification, history and changelog."""
