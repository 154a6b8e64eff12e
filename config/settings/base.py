"""Settings shared by every environment. Everything that differs between machines comes from
the environment (see docs/configuration.md); nothing secret lives in the repository."""

from pathlib import Path
from typing import Any

import django_stubs_ext
from kombu import Queue

from config import embedded_postgres
from config.environment import Environment

# Lets typed generics such as admin.ModelAdmin[Player] work at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent.parent

# A variable set but unusable stops the start, naming it (config/environment.py).
env = Environment()

# --- Core -----------------------------------------------------------------------------------

SECRET_KEY: str = env("SECRET_KEY")
DEBUG: bool = env.bool("DEBUG", default=False)


def _comma_separated(var: str) -> list[str]:
    """A comma-separated variable's entries, each stripped, blank ones left out: `a.example,
    b.example` is two host names, not `a.example` and ` b.example` (which matches no request)."""
    return [entry.strip() for entry in env.list(var, default=[]) if entry.strip()]


ALLOWED_HOSTS: list[str] = _comma_separated("ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS: list[str] = _comma_separated("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "games",
    "league",
    "api",
    "organize",
    "analysis",
    "webhooks",
    "notifications",
]

MIDDLEWARE = [
    "config.middleware.ApiHostMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.ContentSecurityPolicyMiddleware",
    "config.middleware.RequestSizeLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "api.middleware.QueryParametersMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "config.urls"
# A whole game's result is tens of kilobytes; anything near this is not a scorecard.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=1024 * 1024)
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
# PostgreSQL only. DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/yardleague; unset, the
# embedded server under var/ (config/embedded_postgres), started on the first connection.

DATABASES = {
    "default": env.postgres_db("DATABASE_URL")
    if env.str("DATABASE_URL", default="")
    else embedded_postgres.database_settings(),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# A read replica for the public pages (core.replica; docs/operations.md, "More than one
# machine"): unset, every read goes to the primary.
if env.str("DATABASE_REPLICA_URL", default=""):
    DATABASES["replica"] = {
        **env.postgres_db("DATABASE_REPLICA_URL"),
        "CONN_MAX_AGE": DATABASES["default"]["CONN_MAX_AGE"],
        "CONN_HEALTH_CHECKS": True,
        "TEST": {"MIRROR": "default"},
    }
REPLICA_DATABASE = "replica" if "replica" in DATABASES else None
DATABASE_ROUTERS = ["core.replica.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache (rate-limit counters): CACHE_URL, e.g. redis://127.0.0.1:6379/2; in-process by default

CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}

# --- Auth -----------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Organizers sign in on the site's own pages (django.contrib.auth's views, /accounts/).
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "organize:home"
LOGOUT_REDIRECT_URL = "league:home"

# Mail (password resets, sign-up links, organizers' invitations): printed to the console
# unless EMAIL_URL names a server (e.g. smtp+tls://user:password@mail.example.org:587).
_email = env.email_url("EMAIL_URL", default="consolemail://")
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _email.get("EMAIL_PORT", 25)
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _email.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _email.get("EMAIL_USE_SSL", False)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Yard League <noreply@localhost>")

# --- Time and language: store UTC, show TIME_ZONE -----------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE: str = env.time_zone("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

# --- Static files (served by whitenoise from the project; nothing from a CDN) -------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- Celery -----------------------------------------------------------------------------------
# With no CELERY_BROKER_URL, tasks run in-process: eagerly, and (through delay_on_commit) only
# after the surrounding transaction commits.

CELERY_BROKER_URL: str = env.broker_url("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
# Eager tasks never reach a broker; naming the in-memory transport keeps kombu from guessing.
CELERY_BROKER_TRANSPORT_URL = CELERY_BROKER_URL or "memory://localhost/"
# kombu's Redis transport with a work-around: without it, a worker that loses Redis at the wrong
# moment exits instead of reconnecting (config/broker.py; docs/operations.md, "Redis").
CELERY_BROKER_TRANSPORT: str | None = (
    "config.broker:Transport" if CELERY_BROKER_URL.startswith("redis://") else None
)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND: str | None = env("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL or None)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
# The largest job, a full recompute of a league's standings or ratings, takes seconds (about
# 0.5 s for a season of 1,000 matches, docs/benchmarks.md); a job still running after these
# limits is stuck: the soft limit raises inside it (its transaction rolls back and beat's sweep
# tries again), the hard limit ends the worker process.
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=300)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=360)
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# A broker that is down must not hold up a request: fail fast, the beat sweep catches up.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
# How long a retry with the same Idempotency-Key gets the first answer back (docs/api.md).
IDEMPOTENCY_RECEIPT_HOURS: int = env.int("IDEMPOTENCY_RECEIPT_HOURS", default=24)
# How long the scorekeeper who sent a turn may take it back themselves (docs/api.md).
TAKE_BACK_SECONDS: int = env.int("TAKE_BACK_SECONDS", default=120)
# How long an organizer's invitation to a co-organizer opens (docs/organizing.md).
ORGANIZER_INVITATION_DAYS: int = env.int("ORGANIZER_INVITATION_DAYS", default=7)
# How many runs of the rest of a stage its projection simulates (docs/analysis.md, "Chance to
# qualify"): 2,100 give each chance within about 1.1 percentage points (one standard error).
STAGE_PROJECTION_RUNS = env.int("STAGE_PROJECTION_RUNS", default=2100)
# Whether every stored turn (and a match reopened, corrected or restored) enqueues the match's
# live win probability (docs/analysis.md); off, only beat's forecast sweep computes it, once a
# minute, a match at a time.
FORECAST_EACH_TURN = env.bool("FORECAST_EACH_TURN", default=True)

# Each job's queue (docs/operations.md, "More than one machine"). A worker started without -Q
# takes every queue listed here; a site that outgrows one worker runs one a queue, each with
# its own concurrency, so a burst of analyses never holds up standings or the turns' own jobs.
CELERY_TASK_DEFAULT_QUEUE = "celery"
JOB_QUEUES = {
    "analysis.forecast_*": "turns",  # a turn's follow-up: the live win probability
    "league.standings_*": "standings",
    "league.ratings_*": "ratings",
    "league.stage_projection": "standings",
    "league.league_projection": "standings",
    "analysis.analyse_match": "analysis",
    "analysis.sweep": "analysis",
    "webhooks.*": "webhooks",
    "notifications.*": "mail",
}
CELERY_TASK_ROUTES = {pattern: {"queue": queue} for pattern, queue in JOB_QUEUES.items()}
CELERY_TASK_QUEUES = tuple(
    Queue(name) for name in dict.fromkeys([CELERY_TASK_DEFAULT_QUEUE, *JOB_QUEUES.values()])
)

CELERY_BEAT_SCHEDULE = {
    "standings-sweep": {
        "task": "league.standings_sweep",
        "schedule": env.float("STANDINGS_SWEEP_SECONDS", default=30.0),
    },
    "receipts-expire": {"task": "games.receipts_expire", "schedule": 3600.0},
    "analysis-sweep": {
        "task": "analysis.sweep",
        "schedule": env.float("ANALYSIS_SWEEP_SECONDS", default=60.0),
    },
    "forecast-sweep": {"task": "analysis.forecast_sweep", "schedule": 60.0},
    "webhooks-sweep": {"task": "webhooks.sweep", "schedule": 60.0},
    "webhooks-prune": {"task": "webhooks.prune", "schedule": 3600.0},
    "check-in-sweep": {"task": "league.check_in_sweep", "schedule": 60.0},
    "notifications-sweep": {"task": "notifications.sweep", "schedule": 60.0},
}

# --- Notifications to players (docs/notifications.md; docs/configuration.md) -------------------
# The site's address as the links in a mail start (a job has no request to build them from).
SITE_URL: str = env.str("SITE_URL", default="http://localhost:8000")
# How long before its planned start a player is told their table is up.
NOTIFY_TABLE_MINUTES: int = env.int("NOTIFY_TABLE_MINUTES", default=15)
# The waits before each new try of a mail the mail server refused: 5 tries over about 2.6 hours.
NOTIFY_RETRY_SECONDS: list[float] = env.list(
    "NOTIFY_RETRY_SECONDS", cast=float, default=[60.0, 300.0, 1800.0, 7200.0]
)

# --- Webhooks (docs/api.md, "Webhooks"; docs/configuration.md) ----------------------------------
# Seconds an attempt waits to connect, and again for the answer.
WEBHOOK_TIMEOUT_SECONDS: float = env.float("WEBHOOK_TIMEOUT_SECONDS", default=5.0)
# The waits before each retry of a failed delivery: 6 attempts over about 2.6 hours.
WEBHOOK_RETRY_SECONDS: list[float] = env.list(
    "WEBHOOK_RETRY_SECONDS", cast=float, default=[10.0, 60.0, 300.0, 1800.0, 7200.0]
)
# Days a finished delivery stays in its endpoint's log (the hourly `webhooks.prune`).
WEBHOOK_LOG_DAYS: int = env.int("WEBHOOK_LOG_DAYS", default=30)
# Failed attempts in a row (across deliveries) after which an endpoint is disabled.
WEBHOOK_DISABLE_AFTER: int = env.int("WEBHOOK_DISABLE_AFTER", default=15)
# Endpoints on loopback addresses (127.0.0.1, ::1, localhost), over http:// too: for tests and
# demos on one machine. Production never allows them (config/settings/production.py).
WEBHOOK_ALLOW_LOOPBACK: bool = env.bool("WEBHOOK_ALLOW_LOOPBACK", default=False)

# --- REST framework and the OpenAPI schema ------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        "api.permissions.ScoreKeyAuthentication",
    ],
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.SafeJSONParser",
        "api.parsers.SafeFormParser",
        "api.parsers.SafeMultiPartParser",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["api.filters.KnownParameters"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.BoundedLimitOffsetPagination",
    # `?format=` naming no renderer of the view is 406, not DRF's 404 (api/negotiation.py).
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.negotiation.FormatNegotiation",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Clients are told apart by address: the last NUM_PROXIES entries of X-Forwarded-For are
    # trusted proxies (0: the socket's address; a client cannot pick its own by sending the header).
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
    "DEFAULT_THROTTLE_RATES": {
        "login": env.rate("THROTTLE_LOGIN", default="10/min"),
        "turns": env.rate("THROTTLE_TURNS", default="120/min"),
        "advice": env.rate("THROTTLE_ADVICE", default="60/min"),
        # Public sign-ups (API and page) per client address: a form open to anyone.
        "sign_up": env.rate("THROTTLE_SIGN_UP", default="10/hour"),
    },
}

# --- Strategy engine (docs/analysis.md) ---
# Where `manage.py build_strategy` writes the Yardzee strategy tables and analysis reads them.
STRATEGY_DIR = Path(env.str("STRATEGY_DIR", default=str(BASE_DIR / "var" / "strategy")))

# Wrong scoring keys one client address may send per minute (API and scorekeeping page) before
# it gets 429s for the rest of that minute.
SCORE_KEY_FAILURES: int = env.int("SCORE_KEY_FAILURES", default=20)

SPECTACULAR_SETTINGS = {
    "TITLE": "Yard League API",
    "DESCRIPTION": "Leagues, events, brackets and turn-by-turn scoring for Yardzee and Yardkle.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.document_errors",
    ],
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "games.models.MatchStatus",
        "EventStatusEnum": "league.models.EventStatus",
        "StageStatusEnum": "league.models.StageStatus",
        "RegistrationStatusEnum": "league.models.RegistrationStatus",
        # Whether kept figures (a win probability, a stage projection) follow the latest play.
        "FreshnessEnum": [("current", "current"), ("behind", "behind")],
        "PendingEnum": [("pending", "pending")],
    },
}

# --- Logging: one line per record with a timestamp and level; LOG_FORMAT=json for JSON lines ---

LOG_LEVEL: str = env.log_level("LOG_LEVEL", default="INFO")
LOG_FORMAT: str = env.choice("LOG_FORMAT", default="text", choices=("text", "json"))
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    # No log holds a secret of a request: a scoring key (`key=`), a short link's code, a
    # sign-up link's key or an invitation's token is redacted (config/logging.py).
    "filters": {"redact_keys": {"()": "config.logging.RedactScoringKeys"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["redact_keys"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own handlers for "django" (a console one in DEBUG, mail to ADMINS) write
        # failed requests' paths unredacted: its records go to the root's handler instead.
        "django": {"handlers": [], "level": "INFO"},
        "django.db.backends": {"level": "WARNING"},
        # The embedded PostgreSQL's package narrates every start and exit at INFO.
        "pgserver": {"level": "WARNING"},
        # The development server's request lines, through the redacting handler.
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
