"""A stage's options are declared once (`league.stage_options`): the defaults there are the
ones `stage_create` takes, and the API and the organizer's form are built from them."""

import inspect

from django import forms
from rest_framework import serializers

from api.serializers import StageCreateSerializer
from league.services.stages import STAGE_OPTIONS, stage_create
from league.stage_options import DRAW_OPTIONS, FORMAT_OPTION_DEFAULTS, FORMAT_OPTIONS
from organize.forms.events import StageForm


def test_each_declared_default_is_the_one_stage_create_takes():
    parameters = inspect.signature(stage_create).parameters
    for name, option in DRAW_OPTIONS.items():
        assert parameters[name].default == option.default, name


def test_every_declared_option_is_an_option_of_the_service():
    assert set(DRAW_OPTIONS) <= STAGE_OPTIONS
    assert set(FORMAT_OPTION_DEFAULTS) <= set(DRAW_OPTIONS)
    assert set().union(*FORMAT_OPTIONS.values()) <= set(DRAW_OPTIONS)


def test_the_api_and_the_form_take_the_declared_bounds_and_defaults():
    api = StageCreateSerializer().fields
    page = StageForm.base_fields
    for name, option in DRAW_OPTIONS.items():
        if option.kind != "number":
            continue
        api_field, form_field = api[name], page[name]
        assert isinstance(api_field, serializers.IntegerField)
        assert isinstance(form_field, forms.IntegerField)
        assert (api_field.min_value, api_field.max_value) == (option.low, option.high), name
        assert (form_field.min_value, form_field.max_value) == (option.low, option.high), name
        assert form_field.initial == option.default, name
        if option.nullable:
            assert api_field.allow_null, name
        else:
            assert api_field.default == option.default, name
