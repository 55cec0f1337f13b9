"""Reusable test support: real peers and stores the suite starts for itself."""
