"""vmmcheck_report: render, compare and gate vmmcheck results (the JSON of ``vmmcheck run --json``).

Run as ``python3 -m vmmcheck_report <command>`` with ``reports/`` on ``PYTHONPATH``; see reports/README.md.
"""

__version__ = "0.1.0"
