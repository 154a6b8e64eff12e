"""The pages of the notifications: the unsubscribe link of every mail."""

from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe_page, name="unsubscribe"),
]
