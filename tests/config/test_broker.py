"""config/broker.py: kombu's Redis transport, with the work-around that keeps a Celery worker
alive through a Redis outage. Here, kombu alone, as the worker's consumer drives it (the whole
worker: tests/system/test_worker_outage.py): a job's message delivered and not yet acknowledged,
the consumer waiting on the queue for the next, and Redis gone, the loss read from the pub/sub
socket first. Each test starts a redis-server of its own."""

from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from kombu import Connection, Exchange, Message, Queue
from kombu.common import ignore_errors

from tests.own_redis import OwnRedis, needs_redis_server

pytestmark = needs_redis_server

OURS = "config.broker:Transport"
STOCK = "redis"


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(directory=tmp_path)  # keeps the unacknowledged messages across restarts
    server.start()
    yield server
    server.stop()


def consuming(url: str, transport: str) -> tuple[Connection, Message]:
    """A connection as a worker's consumer holds it: one job's message unacknowledged, a BRPOP
    pending for the next, and a broadcast (fanout, pub/sub) queue, as the remote control has."""
    jobs = Queue("jobs")
    with Connection(url) as sender:
        sender.Producer().publish({"job": 1}, routing_key="jobs", declare=[jobs])
    connection = Connection(url, transport=transport)
    received: list[Message] = []
    connection.Consumer(
        jobs, callbacks=[lambda _, m: received.append(m)], prefetch_count=2
    ).consume()
    broadcast = Queue("broadcast", Exchange("broadcast", type="fanout"), auto_delete=True)
    connection.Consumer(broadcast, channel=connection.channel(), no_ack=True).consume()
    while not received:
        connection.drain_events(timeout=5)
    for _ in range(50):  # until nothing more comes (a subscription's confirmation may)
        try:
            connection.drain_events(timeout=0.2)
        except TimeoutError:
            break
    channel: Any = connection.default_channel  # kombu's Redis channel, not in the stubs
    assert channel._in_poll is not None  # the BRPOP for the next job
    return connection, received[0]


def lose_redis(connection: Connection, own_redis: OwnRedis) -> None:
    """Redis goes down; the consumer reads the loss, then cleans up as Celery's does
    (celery/worker/consumer/consumer.py, `on_connection_error_after_connected`)."""
    own_redis.go_down(save=True)
    with pytest.raises(connection.connection_errors):
        connection.drain_events(timeout=5)
    with suppress(Exception):  # Celery ignores whatever this raises
        connection.collect(socket_timeout=5)
    ignore_errors(connection, connection.close)


def test_ours_lets_the_consumer_drop_the_lost_connection_and_ack_once_redis_is_back(own_redis):
    connection, message = consuming(own_redis.url, OURS)
    lose_redis(connection, own_redis)  # raises nothing but connection errors, which it ignores
    own_redis.start()
    unacked = own_redis.client()
    assert unacked.hexists("unacked", message.delivery_tag)  # Redis still holds it for later
    message.ack()  # a job that ended meanwhile, acknowledged once the worker reconnected
    assert not unacked.hexists("unacked", message.delivery_tag)  # so never delivered again


def test_the_stock_transport_still_fails_there(own_redis):
    """When this fails, kombu no longer has the defect: remove config/broker.py and
    CELERY_BROKER_TRANSPORT (and this test)."""
    connection, _ = consuming(own_redis.url, STOCK)
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'hostname'"):
        lose_redis(connection, own_redis)
