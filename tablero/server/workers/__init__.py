"""Engine work that the web process hands off: computer players' moves."""


class WorkersUnavailable(RuntimeError):
    """No worker could think about a job just now (one died, and its pool is starting new
    ones): the bot's turn is tried again later, never played as a pass."""
