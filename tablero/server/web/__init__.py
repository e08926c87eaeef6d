"""What the server does to stay up and private on the open internet, one job per module.

- ``headers``: security headers (Content-Security-Policy and friends) on every response.
- ``origin``: refuses cross-site WebSocket handshakes and cross-site writes (``Origin``).
- ``jsonlimits``: reads JSON from the network within limits of size, depth and number length.
- ``ratelimit``: how often one address (or one socket) may write.
- ``logredact``: keeps seat tokens out of the logs of the libraries under the server.
- ``openapi``: the request bodies the handlers read, described in the OpenAPI schema.

The table routes (``tables/routes.py``) and the app (``app.py``) put them together; the limits
themselves are documented in docs/web-api.md ("Limits").
"""
