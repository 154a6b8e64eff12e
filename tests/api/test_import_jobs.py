"""Issue 37, item 1: an event import is a job. `POST leagues/{slug}/import/` checks the file and
answers 202 with the job's URL (`Location`); the job replays it; `GET imports/{id}/` says where
it stands, to who sent it and the league's organizers only. A job runs once however often it is
delivered, and one that fails changes nothing."""

from typing import Any

import pytest
from django.test import TestCase

from league.models import Event, EventImportJob, ImportStatus, League, Player
from league.services import exports, imports
from tests.api.test_import_bounds import _export, _league
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def _send(organizer, data: dict[str, Any], slug: str = "into-here") -> Any:
    _league(slug, organizer)
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client_for(organizer).post(f"/api/v1/leagues/{slug}/import/", data, format="json")


def test_an_import_is_accepted_as_a_job_and_read_at_its_url(organizer, other_organizer):
    answer = _send(organizer, _export(organizer, "from-here", turns=4))
    assert answer.status_code == 202
    job = answer.json()
    assert answer["Location"] == job["url"]
    assert job["status"] == "pending"  # its job runs once the request has committed
    assert job["url"] == f"http://testserver/api/v1/imports/{job['id']}/"
    done = client_for(organizer).get(job["url"]).json()
    assert done["status"] == "done"
    assert done["error"] is None
    event = Event.objects.get(pk=done["result"]["event"])
    assert event.league.slug == "into-here"
    assert done["event_url"] == f"http://testserver/api/v1/events/{event.pk}/"
    assert len(done["result"]["players"]) == 2
    assert EventImportJob.objects.get(pk=job["id"]).data is None  # the file is not kept
    # Nobody else reads it, as for a job that does not exist.
    assert client_for(other_organizer).get(job["url"]).status_code == 404
    assert client_for(other_organizer).get(job["url"]).json()["code"] == "not_found"
    assert client_for(None).get(job["url"]).status_code == 401
    missing = "/api/v1/imports/00000000-0000-0000-0000-000000000000/"
    assert client_for(organizer).get(missing).status_code == 404


def test_a_job_runs_once_however_often_it_is_delivered(organizer):
    job = _send(organizer, _export(organizer, "from-here", turns=4)).json()
    players = Player.objects.count()
    assert imports.import_run(job_id=job["id"]) == ImportStatus.DONE
    assert Player.objects.count() == players
    assert Event.objects.filter(league__slug="into-here").count() == 1


def test_a_job_whose_replay_fails_changes_nothing_and_says_why(organizer):
    data = _export(organizer, "from-here", turns=4)
    data["matches"][0]["turns"][-1]["points"] = 50  # the file says it scored; it did not
    before = (Player.objects.count(), Event.objects.count())
    job = _send(organizer, data).json()
    failed = client_for(organizer).get(job["url"]).json()
    assert failed["status"] == "failed"
    assert failed["result"] is None
    assert failed["error"]["code"] == "import_mismatch"
    assert (Player.objects.count(), Event.objects.count()) == before
    assert not League.objects.get(slug="into-here").players.exists()


def test_a_file_refused_by_the_request_makes_no_job(organizer):
    data = _export(organizer, "from-here", turns=4)
    data["format"] = "something else"
    answer = _send(organizer, data)
    assert answer.status_code == 400
    assert answer.json()["code"] == "not_an_event_export"
    assert not EventImportJob.objects.exists()


def test_the_management_command_still_imports_at_once(organizer):
    data = _export(organizer, "from-here", turns=4)
    imported = exports.event_import(league=_league("by-hand", organizer), data=data)
    assert imported.event.league.slug == "by-hand"
