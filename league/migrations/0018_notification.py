# What the notifications need of league (docs/notifications.md): a registration's key derived
# from a stored seed, so a mail can carry its private link again; and when a sign-up's
# check-in opening was announced, so it is announced once.

from django.db import migrations, models
from django.db.models import Q
from django.utils import timezone


def open_ones_announced(apps, schema_editor):
    """A check-in already open when this runs is taken as announced: its players are not
    sent a surprise mail about a window that opened before notifications existed."""
    SignUp = apps.get_model("league", "SignUp")
    now = timezone.now()
    SignUp.objects.filter(check_in=True).filter(
        Q(check_in_opens=None) | Q(check_in_opens__lte=now)
    ).update(check_in_announced_at=now)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0017_stage_follow_on"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="key_seed",
            field=models.CharField(
                blank=True,
                help_text="What its key is derived from with the site's SECRET_KEY, so that a "
                "mail can carry the private link again without the key stored (empty: an older "
                "key, random).",
                max_length=32,
            ),
        ),
        migrations.AddField(
            model_name="signup",
            name="check_in_announced_at",
            field=models.DateTimeField(
                blank=True,
                help_text="When the opening of its check-in was announced (`check_in_opened`); "
                "cleared when check-in is turned on again or its opening moved, to be announced "
                "again.",
                null=True,
            ),
        ),
        migrations.RunPython(open_ones_announced, migrations.RunPython.noop),
    ]
