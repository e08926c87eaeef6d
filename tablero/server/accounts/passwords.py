"""Password hashes: Argon2id through pwdlib, computed in a worker thread.

Parameters: 19 MiB of memory, 2 passes, 1 lane (the minimum OWASP's password storage cheat
sheet recommends for Argon2id). pwdlib's default (64 MiB, 3 passes, 4 lanes) took 0.19 s of
CPU on this 2-core machine, and 64 MiB a login: a handful of logins at once would take the
server's memory. At most ``CONCURRENT`` hashes run at once; the rest wait their turn, off
the event loop. A stored hash made with other parameters is still verified, and replaced at
the next successful login (``verify`` returns the new hash).

Unknown usernames are verified against a fixed hash of a random password, so the answer
takes as long as for a wrong password: the time of a reply does not tell which names exist.
"""

from __future__ import annotations

import asyncio
import secrets

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

__all__ = [
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "PasswordError",
    "check_password",
    "hash_password",
    "verify_nobody",
    "verify_password",
]

MIN_PASSWORD = 8
MAX_PASSWORD = 256
CONCURRENT = 2

_HASHER = PasswordHash((Argon2Hasher(time_cost=2, memory_cost=19 * 1024, parallelism=1),))
_SLOTS: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}
_NOBODY = _HASHER.hash(secrets.token_urlsafe(16))


class PasswordError(ValueError):
    """Why a new password is refused."""


def check_password(password: object) -> str:
    """The password if it may be used, else ``PasswordError`` (the message never repeats it)."""
    if not isinstance(password, str):
        raise PasswordError("a password is text")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise PasswordError(
            f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters, not {len(password)}"
        )
    return password


def _slot() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    slot = _SLOTS.get(loop)
    if slot is None:
        for old in [k for k in _SLOTS if k.is_closed()]:
            del _SLOTS[old]
        slot = _SLOTS[loop] = asyncio.Semaphore(CONCURRENT)
    return slot


async def hash_password(password: str) -> str:
    async with _slot():
        return await asyncio.to_thread(_HASHER.hash, password)


async def verify_password(password: str, stored: str) -> tuple[bool, str | None]:
    """(right?, a new hash to store when the stored one used older parameters)."""
    async with _slot():
        return await asyncio.to_thread(_HASHER.verify_and_update, password, stored)


async def verify_nobody(password: str) -> None:
    """The work of a verification, for a name that has no account (see the module's text)."""
    await verify_password(password, _NOBODY)
