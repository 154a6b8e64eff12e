# ruff: noqa: N999 - gunicorn's own name for its config file, not a module anyone imports
"""gunicorn's settings in the production shape: the Dockerfile's CMD and docker-compose.yml's
`web` run `gunicorn config.wsgi --config config/gunicorn.conf.py` (bind and workers stay on their
command lines). The access log names the path only: a query string can hold a scoring key
(`?key=`), and the Referer of a request from the scoring page is that page's address."""

accesslog = "-"
# Like gunicorn's default, with the method, path and protocol in place of the request line
# (%(r)s, which has the query string) and without the Referer (%(f)s) or %(q)s.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(L)s "%(a)s"'


def post_worker_init(worker: object) -> None:
    """The worker loads every view and freezes what it holds (config/workers.py). The secrets
    of a path (a table's short link `/t/<id>/<code>`, a sign-up link `/sign-up/<key>/`, an
    invitation's link `/invitations/<token>/`) are redacted in gunicorn's logs by the app
    itself as it loads (`config.wsgi`), so a gunicorn started without this file redacts them
    too."""
    from config.workers import freeze_loaded_objects

    freeze_loaded_objects()
