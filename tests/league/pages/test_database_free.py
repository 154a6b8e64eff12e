"""The presenters' tests run without a database: none of them is marked for one, so a
presenter that read a row would fail here."""

import pytest

from league.models import Player


def test_the_database_is_out_of_reach_here() -> None:
    with pytest.raises(RuntimeError, match="Database access not allowed"):
        Player.objects.exists()
