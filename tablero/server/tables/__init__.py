"""Live tables: rooms (one per table in play), what each viewer may see, the request
protocol, and the HTTP and WebSocket routes that reach them."""
