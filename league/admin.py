"""Admin pages for this app's models (organizers use them)."""
