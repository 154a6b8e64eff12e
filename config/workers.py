"""What a gunicorn worker does once it has loaded the app (`post_worker_init` in
config/gunicorn.conf.py, which holds only gunicorn's own settings)."""

import gc

from django.urls import get_resolver


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
