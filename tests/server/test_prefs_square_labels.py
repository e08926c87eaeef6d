"""The square-label option an account keeps: the game's language or the interface's."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tablero.server.accounts.prefs import Prefs


def test_square_labels_takes_game_or_interface() -> None:
    for value in ("game", "interface"):
        assert Prefs.model_validate({"squareLabels": value}).stored() == {"squareLabels": value}
    assert Prefs.model_validate({}).stored() == {}
    for bad in ("es", "", True, 1):
        with pytest.raises(ValidationError):
            Prefs.model_validate({"squareLabels": bad})
