"""The OpenAPI schema renders and validates; its documentation pages load from the project."""

import pytest
from django.core.management import call_command
from django.test import Client


@pytest.mark.django_db
def test_openapi_schema_renders_at_api_v1_schema(client: Client):
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Yard League API"


def test_spectacular_validate_passes_with_warnings_as_errors(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))
    assert (tmp_path / "s.yml").read_text().startswith("openapi:")


@pytest.mark.django_db
def test_swagger_ui_is_served_without_a_cdn(client: Client):
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "cdn.jsdelivr.net" not in page
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
