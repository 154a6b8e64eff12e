"""The page an unsubscribe link opens (docs/notifications.md, "Unsubscribing"): it asks, and a
POST stores the choice (this league, or every league). A mail client's own unsubscribe button
POSTs `List-Unsubscribe=One-Click` to the same address (RFC 8058): this league, at once.

The signed token in the address is the permission (it names a registration, never an email
in clear), so the POST takes no CSRF token: a mail client has none to send. It changes one
thing only, mail stopped, which the holder of the mail may ask for."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notifications import services


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe_page(request: HttpRequest, token: str) -> HttpResponse:
    registration = services.registration_of_token(token)
    if registration is None:
        response = render(request, "notifications/unsubscribe_invalid.html", status=404)
    else:
        league = registration.event.league
        context = {"league": league, "event": registration.event, "done": ""}
        if request.method == "POST":
            every = request.POST.get("scope") == "all"
            services.unsubscribe(email=registration.email, league_id=None if every else league.pk)
            context["done"] = "all" if every else "league"
        response = render(request, "notifications/unsubscribe.html", context)
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response
