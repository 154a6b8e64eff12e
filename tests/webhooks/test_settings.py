"""Webhook settings (issue 21 item 4): production never sends to loopback addresses, whatever
the environment says; the defaults are short timeouts and a bounded backoff."""

from tests.config.django_process import django_process, production_environment


def _production(code: str, **environment: str) -> str:
    return django_process(code, production_environment(**environment), check=True).stdout.strip()


def test_item4_production_refuses_loopback_endpoints_whatever_the_environment_says():
    code = (
        "from django.conf import settings as s;"
        "from webhooks import sender;"
        "print(s.WEBHOOK_ALLOW_LOOPBACK, s.WEBHOOK_TIMEOUT_SECONDS, s.WEBHOOK_RETRY_SECONDS,"
        " s.WEBHOOK_DISABLE_AFTER);"
        "print(sender.post('http://127.0.0.1:9/', b'{}', {}).error)"
    )
    out = _production(code, WEBHOOK_ALLOW_LOOPBACK="true").splitlines()
    assert out[0] == "False 5.0 [10.0, 60.0, 300.0, 1800.0, 7200.0] 15"
    assert out[1] == "Webhooks are not sent to this machine's own (loopback) address."
