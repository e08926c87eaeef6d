"""Accounts: a username and a password, a session in a cookie, personal options.

Guests play as before (a nickname and a seat token); an account adds an identity that
follows the player from browser to browser, and a rating (``server/ratings``).

- ``names.py``: what a username may be, and the key that makes names unique without regard
  to case;
- ``passwords.py``: Argon2id hashes (pwdlib), verified off the event loop;
- ``store.py``: accounts and sessions in the database;
- ``sessions.py``: the session cookie, and the account a request speaks for;
- ``routes.py``: sign up, log in, log out, ``/api/me``.
"""
