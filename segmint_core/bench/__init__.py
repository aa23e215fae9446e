"""Benchmarks behind ``segmint bench``. Timings are medians of repeated runs."""
