"""Run Reel's units of work (the segments of a render, the rows of a batch) on a Ray cluster."""

__version__ = "0.1.0"
