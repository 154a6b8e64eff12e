"""Models arrive with the issues that need them (see docs/architecture.md)."""
