# ruff: noqa: N999 - gunicorn's own name for its config file, not a module anyone imports
"""gunicorn's settings in the production shape: the Dockerfile's CMD and docker-compose.yml's
`web` run `gunicorn config.wsgi --config config/gunicorn.conf.py` (bind and workers stay on their
command lines). The access log names the path only: a query string can hold a scoring key
(`?key=`), and the Referer of a request from the scoring page is that page's address."""

accesslog = "-"
# Like gunicorn's default, with the method, path and protocol in place of the request line
# (%(r)s, which has the query string) and without the Referer (%(f)s) or %(q)s.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(L)s "%(a)s"'
