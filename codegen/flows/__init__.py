"""agents.json planning: bundles read leniently, then planned into data the flow clients run."""
