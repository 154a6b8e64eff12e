"""What a Celery job process loads as it starts, before it freezes what it holds
(`config.workers.warm_job_worker`). Each app registers its own loaders from its `ready()`, so
the wiring in `config` names no app: `analysis` registers the strategy tables a match's
analysis reads."""

from collections.abc import Callable

_loaders: list[Callable[[], None]] = []


def on_job_process_start(loader: Callable[[], None]) -> Callable[[], None]:
    """Register `loader` to run as each job process starts (once, however often registered)."""
    if loader not in _loaders:
        _loaders.append(loader)
    return loader


def load_all() -> None:
    """Run every registered loader, in the order the apps registered them."""
    for loader in _loaders:
        loader()
