import pytest

# league_night's shared assertions explain a failure as an assertion in a test module does.
pytest.register_assert_rewrite("tests.league.services.league_night")
