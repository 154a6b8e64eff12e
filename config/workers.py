"""What a gunicorn worker does once it has loaded the app (`post_worker_init` in
config/gunicorn.conf.py, which holds only gunicorn's own settings), and what a Celery job
process does as it starts (`worker_process_init` in config/celery.py)."""

import gc

from django.urls import get_resolver

from core import warmup


def freeze_loaded_objects() -> None:
    """Load every view now, then keep what is loaded out of the garbage collector's way.

    A worker holds about 160,000 objects once Django, DRF, every view and the rulebook are
    loaded, and they live as long as the worker does. Python's full (oldest-generation)
    collection walks them all, and one took 70 to 130 ms in a worker under load: the request
    it interrupts, and those queued behind it, wait that long (docs/benchmarks.md, "End to
    end"). `gc.freeze()` moves every object alive now to a generation no collection walks, so
    a full collection only walks what requests have left behind since."""
    get_resolver().url_patterns  # noqa: B018 - imports every view module of the URLconf
    gc.collect()
    gc.freeze()


def warm_job_worker() -> None:
    """Load what the apps registered (`core.warmup`: the strategy tables and strategies a
    match's analysis reads, `analysis.strategies.preload`), then keep what is loaded out of
    the collector's way, as a web worker does. Without it, the
    first analysis of each job process loaded them: 200 to 370 ms of a core, on the cores
    the web answers turns from (docs/benchmarks.md, "What sets the open loop's tail")."""
    warmup.load_all()
    gc.collect()
    gc.freeze()
