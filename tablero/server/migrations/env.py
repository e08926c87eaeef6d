"""Alembic environment: migrations run on the connection ``tablero.server.store.db.migrate`` gives.

There is no alembic.ini: the server runs the migrations itself on start, so a person never
has to. To write a new revision, add a file to ``versions/`` by hand (see v0001_initial.py).
"""

from __future__ import annotations

from alembic import context

from tablero.server.accounts import models as _accounts  # noqa: F401  (registers its tables)
from tablero.server.analysis import models as _analysis  # noqa: F401  (registers its tables)
from tablero.server.chat import models as _chat  # noqa: F401  (registers its tables)
from tablero.server.club import models as _club  # noqa: F401  (registers its tables)
from tablero.server.duplicate import models as _duplicate  # noqa: F401  (registers its tables)
from tablero.server.puzzles import models as _puzzles  # noqa: F401  (registers its tables)
from tablero.server.ratings import models as _ratings  # noqa: F401  (registers its tables)
from tablero.server.store.models import Base
from tablero.server.tournaments import models as _tournaments  # noqa: F401  (its tables)

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only reached when alembic is run by hand
    raise RuntimeError("run migrations through tablero.server.store.db.migrate(engine)")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
