"""The strategy engine: optimal play for Yardzee and Yardkle, and the analysis of played games.

Pure code like the rest of `scoring` (the standard library and NumPy; RULES.md is the
specification and `scoring.yardzee` / `scoring.yardkle` the only definition of a score). The one
exception to "no I/O" is `scoring.analysis.table_file`, which saves and memory-maps the Yardzee
strategy tables. docs/analysis.md has the method, the objectives and the figures.
"""
