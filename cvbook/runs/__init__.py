"""Drivers of the long runs: command lines, records on disk, resume."""
