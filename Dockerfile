# BoB's image for compose.yaml: the web server, the worker and the scheduler all run it.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
RUN apt-get update \
    && apt-get install --no-install-recommends -y gettext \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY . .
RUN pip install --no-cache-dir . \
    && python manage.py compilemessages --ignore=.venv --verbosity 0 \
    && useradd --create-home bob && mkdir -p var staticfiles && chown -R bob var staticfiles
USER bob
EXPOSE 8000
