"""The API's one error shape, as the schema documents it."""

from typing import Any

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="Stable snake_case name of the error.")
    message = serializers.CharField(help_text="A sentence for people.")
    details = serializers.DictField(help_text="Facts about the error, e.g. expected values.")
    rule = serializers.CharField(
        required=False, allow_null=True, help_text="RULES.md section, for a broken game rule."
    )
