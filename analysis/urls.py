from django.urls import path

from analysis import views

app_name = "analysis"

urlpatterns = [
    path("matches/<int:match_id>/analysis/", views.section, name="section"),
    path("matches/<int:match_id>/win-probability/", views.forecast, name="forecast"),
]
