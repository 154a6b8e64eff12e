from django.apps import AppConfig


class OrganizeConfig(AppConfig):
    name = "organize"
