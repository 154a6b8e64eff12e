"""An event import sent to the API runs as a job (issue 37, item 1): the request checks the
file (`exports.check_export`: its format, version, schema, references, turns per match, no
player it never seats) and the league (empty, of the file's game) and keeps it as an
`EventImportJob`; the job replays it (`exports.event_import`, all or nothing) and records what
came of it, which the caller reads at the job's URL (docs/api.md, "Event export and import").
No web request holds a worker for the replay, however large the file."""

import logging
import uuid
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from league.models import EventImportJob, ImportStatus, League
from league.services import exports
from league.services.jobs import EVENT_IMPORT, enqueue_on_commit
from scoring.errors import DomainError

logger = logging.getLogger(__name__)

FINISHED = (ImportStatus.DONE, ImportStatus.FAILED)


@transaction.atomic
def import_request(*, league: League, data: object, by: User | None) -> EventImportJob:
    """Check the file and the league now (every refusal `event_import` would make before its
    replay, as the same 4xx), keep the file as a job and enqueue it once this commits."""
    export = exports.check_export(data)
    exports.ensure_importable(league, export)
    job = EventImportJob.objects.create(league=league, created_by=by, data=export)
    enqueue_on_commit(EVENT_IMPORT, str(job.pk))
    return job


def import_run(*, job_id: str) -> str:
    """Run the import of job `job_id` once: safe to run again (a job done or failed is left
    as it is; one whose worker died mid-way runs again, its first run having changed nothing).
    The job's row stays locked while it runs, so two deliveries of it never both replay.
    Returns the job's status."""
    EventImportJob.objects.filter(pk=job_id, status=ImportStatus.PENDING).update(
        status=ImportStatus.RUNNING, started_at=timezone.now()
    )
    with transaction.atomic():
        job = (
            EventImportJob.objects.select_for_update(of=("self",))
            .select_related("league", "created_by")
            .filter(pk=job_id)
            .first()
        )
        if job is None or job.status in FINISHED:
            return job.status if job is not None else "missing"
        try:
            with transaction.atomic():
                imported = exports.event_import(league=job.league, data=job.data, by=job.created_by)
        except DomainError as refused:
            job.status, job.error = ImportStatus.FAILED, refused.to_json()
        except Exception:
            logger.exception("Event import %s failed", job.pk)
            job.status, job.error = ImportStatus.FAILED, _failed()
        else:
            job.status, job.result = ImportStatus.DONE, _made(imported)
        job.data = None  # kept only until it has run
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "result", "error", "data", "finished_at"])
        return str(job.status)


def _made(imported: exports.EventImport) -> dict[str, Any]:
    return {
        "event": imported.event.pk,
        "players": {str(old): new for old, new in imported.players.items()},
        "matches": {str(old): new for old, new in imported.matches.items()},
    }


def _failed() -> dict[str, Any]:
    return {
        "code": "server_error",
        "message": "The import failed on the server; the error is logged for the organizers. "
        "Nothing was imported.",
        "details": {},
    }


def import_job_for(job_id: uuid.UUID, user: Any) -> EventImportJob | None:
    """The job `job_id` if `user` may read it (who sent it, an organizer of its league, or
    staff), else None (as for a job that does not exist)."""
    job = EventImportJob.objects.select_related("league").filter(pk=job_id).first()
    if job is None or not user.is_authenticated:
        return None
    if job.created_by_id == user.pk or job.league.is_organizer(user):
        return job
    return None
