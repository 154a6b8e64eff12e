# One image for web (gunicorn), worker and beat; see docker-compose.yml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production

WORKDIR /app
COPY requirements.lock ./
RUN pip install -r requirements.lock

COPY . .
# collectstatic and build_strategy need settings but no secret: a throwaway key only for this
# build step. build_strategy writes the strategy tables that analysis and the win probability
# read (/app/var/strategy, the default STRATEGY_DIR; about a minute): built from this image's own
# rules (.dockerignore leaves a developer's var/ out), read-only for the app's user.
RUN export SECRET_KEY=build-only ALLOWED_HOSTS=build \
    && python manage.py collectstatic --noinput \
    && python manage.py build_strategy \
    && useradd --create-home --uid 1000 league
USER league

EXPOSE 8000
# Behind nginx (docker-compose.yml); config/gunicorn.conf.py keeps query strings out of the log.
CMD ["gunicorn", "config.wsgi", "--config", "config/gunicorn.conf.py", "--bind", "0.0.0.0:8000", "--workers", "3"]
