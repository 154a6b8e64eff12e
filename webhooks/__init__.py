"""Webhooks: an organizer's HTTPS endpoints that hear of what happens in their league (docs/api.md,
"Webhooks"). Deliveries are signed, retried with backoff, logged, and an endpoint that keeps
failing is disabled."""
