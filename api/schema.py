"""OpenAPI descriptions drf-spectacular cannot infer: the scoring-key authentication."""

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ScoreKeyScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "api.permissions.ScoreKeyAuthentication"
    name = "scoreKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "header", "name": "X-Score-Key"}


# Every operation may answer with the one error shape (api/exceptions.py); documenting it
# once here keeps each view's schema to its successful answers.
ERROR_RESPONSES = {
    "400": "Malformed JSON, invalid fields, or a request the league set-up refuses.",
    "401": "No credentials for a write.",
    "403": "Credentials that do not allow this.",
    "404": "No such object.",
    "405": "Method not allowed here.",
    "406": "The requested format is not offered here.",
    "409": "The match or stage cannot take this now.",
    "411": "A chunked request body the server cannot delimit; send it with a Content-Length.",
    "413": "The request body is too large.",
    "415": "Send JSON.",
    "422": "A broken game rule; nothing was stored.",
    "429": "Too many requests; see Retry-After.",
    "503": "The database is unavailable, or undid the request for another one at the same "
    "moment; nothing was stored.",
}


def document_errors(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the error shape on every operation."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault(
        "Error",
        {
            "type": "object",
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "details": {"type": "object", "additionalProperties": {}},
                "rule": {"type": "string", "nullable": True},
            },
            "required": ["code", "message", "details"],
        },
    )
    error = {"$ref": "#/components/schemas/Error"}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            # An error comes in the format the request asked for (e.g. ?format=csv).
            media_types = {"application/json"}
            for status, response in responses.items():
                if status.startswith("2"):
                    media_types.update(response.get("content", {}))
            content = {
                media: {"schema": error if "json" in media else {"type": "string"}}
                for media in sorted(media_types)
            }
            for status, description in ERROR_RESPONSES.items():
                responses.setdefault(status, {"description": description, "content": content})
    return result
