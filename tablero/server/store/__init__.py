"""Storage: the database engine and migrations (``db``), the schema (``models``) and the
transactions the server runs on it (``tables``)."""
