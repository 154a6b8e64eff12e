"""The webhooks' errors: one family (`WebhookError`, HTTP 400), one constructor shape from
`scoring.errors.DomainError` (`code`, `message`, keyword `details`)."""

from scoring.errors import DomainError


class WebhookError(DomainError):
    """An endpoint that cannot be registered or changed as asked; `code` names why (HTTP 400)."""


class EndpointConflict(WebhookError):
    """The endpoint cannot do this in its current state (HTTP 409)."""
