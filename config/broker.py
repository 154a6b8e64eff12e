"""kombu's Redis transport, with one defect worked around: a Celery worker must come back by
itself after Redis was down, not exit (`CELERY_BROKER_TRANSPORT` in config/settings/base.py
selects this transport for a `redis://` broker; docs/operations.md, "Redis (broker and cache)").

The defect (kombu 5.7.0 with celery 5.7.0). When the worker loses Redis, the consumer cleans up
the dead connection twice (celery/worker/consumer/consumer.py:476 `connection.collect()`, then
:487 `connection.close()`). If the loss was read from the remote-control (pub/sub) socket while
a BRPOP was pending on the task channel, the first close of that channel stops at its first
step: it reads the pending BRPOP (kombu/transport/redis.py:1894), which fails as Redis is down.
kombu swallows that; closing the transport's other channels (kombu/connection.py:415) stops at
the remote-control channel, whose close needs Redis too, before the task channel is closed
again; then `collect()` drops the transport's reference to its connection settings
(kombu/connection.py:429, `transport.client = None`) while the task channel is still open. The
second close goes further: it discards the channel's Redis pool and restores the unacknowledged
messages (kombu/transport/virtual/base.py:806), which needs a new pool, whose settings come from
`transport.client` (kombu/transport/redis.py:1959): `AttributeError: 'NoneType' object has no
attribute 'hostname'`. That is no connection error, so it leaves the consumer (celery/worker/
worker.py:271, "Unrecoverable error"), and the worker shuts down once its running jobs end,
never to consume again unless a supervisor starts it anew. Acknowledging a job that ends later,
on the same channel, fails the same way (in that shutdown: "Error on stopping Hub").

The work-around: each channel keeps the connection it was opened on, and gives it back to its
transport when kombu has dropped it, so the channel can still reach Redis for its last calls:
restoring its messages (which fails with a connection error while Redis is down, as kombu
expects) and acknowledging the jobs that end after the reconnection (which then succeeds, so
their messages are not delivered a second time). Nothing else changes.
"""

from typing import Any

from kombu.transport import redis


class Channel(redis.Channel):
    def __init__(self, connection: redis.Transport, *args: Any, **kwargs: Any) -> None:
        self._opened_on = connection.client
        super().__init__(connection, *args, **kwargs)

    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        transport = self.connection
        if transport is not None and transport.client is None:
            transport.client = self._opened_on
        params: dict[str, Any] = super()._connparams(asynchronous=asynchronous)  # type: ignore[misc]
        return params


class Transport(redis.Transport):
    Channel = Channel
