"""What ratings say of a match before it is played: each player's chance to win it, by
OpenSkill's own prediction under the league's model (`PlackettLuce.predict_win`: every
player a team of one)."""

from collections.abc import Sequence

from league.rating.model import Rating, RatingSettings

DEFAULT_SETTINGS = RatingSettings()


def win_chances(
    ratings: Sequence[Rating], *, settings: RatingSettings = DEFAULT_SETTINGS
) -> list[float]:
    """Each player's chance to win, in the order given (they sum to 1)."""
    model = settings.model()
    teams = [[model.rating(mu=rating.mu, sigma=rating.sigma)] for rating in ratings]
    return [float(chance) for chance in model.predict_win(teams)]
