"""Benchmark scripts and the synthetic data generator (not part of the product's engine)."""
