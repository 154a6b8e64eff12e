"""The rulebook of Yardzee and Yardkle: pure Python, no Django (see docs/scoring.md)."""
