"""Benchmarks (speed, memory) run as project commands; results go to metrics/."""
