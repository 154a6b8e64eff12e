"""Organizers sign in on the site's own pages (issue 17, "Sign-in and roles"): Django's auth
views in the site's look; the organizer start page needs a signed-in user."""

import pytest
from django.core import mail
from django.test import Client


@pytest.mark.django_db
def test_an_organizer_signs_in_sees_their_leagues_and_signs_out(
    client: Client, organizer, yardzee_league
):
    page = client.get("/accounts/login/")
    assert page.status_code == 200
    assert "Sign in" in page.content.decode()
    signed_in = client.post(
        "/accounts/login/", {"username": organizer.username, "password": "pw-" + organizer.username}
    )
    assert signed_in.status_code == 302
    assert signed_in["Location"] == "/organize/"
    home = client.get("/organize/").content.decode()
    assert yardzee_league.name in home
    assert "Sign out" in home
    out = client.post("/accounts/logout/")
    assert out.status_code == 302
    assert client.get("/organize/").status_code == 302


@pytest.mark.django_db
def test_a_wrong_password_says_so_and_signs_no_one_in(client: Client, organizer):
    page = client.post("/accounts/login/", {"username": organizer.username, "password": "nope"})
    assert page.status_code == 200
    assert "correct username and password" in page.content.decode()
    assert client.get("/organize/").status_code == 302


@pytest.mark.django_db
def test_anonymous_is_sent_to_sign_in(client: Client):
    response = client.get("/organize/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/organize/"


@pytest.mark.django_db
def test_a_password_reset_mails_a_link_that_sets_a_new_password(client: Client, organizer):
    organizer.email = "org@example.org"
    organizer.save()
    sent = client.post("/accounts/password_reset/", {"email": "org@example.org"})
    assert sent.status_code == 302
    assert len(mail.outbox) == 1
    link = next(line for line in mail.outbox[0].body.splitlines() if "/accounts/reset/" in line)
    path = link.split("testserver", 1)[1]
    form = client.get(path, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a-long-new-pass-42", "new_password2": "a-long-new-pass-42"},
    )
    assert done.status_code == 302
    assert client.login(username=organizer.username, password="a-long-new-pass-42")
