// The live connection to one table (WebSocket /ws/tables/{id}). The server sends the whole table
// view on connect and after every change, so resuming after a drop needs no bookkeeping: we
// reconnect with exponential backoff (0.5 s doubling to 10 s, with jitter) and take the fresh
// state as the truth. The seat token never goes in the URL (URLs end up in logs): every socket
// opens as a spectator's and, if we hold a seat, its first message is {"type": "auth", token},
// which the server answers with our seat's state. A logged-in player without a token in this
// browser sends {"type": "auth"} alone: the session cookie came with the handshake, and the
// server seats the socket at the account's seat (or answers not_seated: a spectator). Every
// reconnect does the same. The table's chat rides on the same socket: {"type": "chat", id,
// text} out, {"type": "chat", line} and {"type": "chat_history", lines} in.

const PING_EVERY_MS = 25000;

export class LiveTable {
  /**
   * @param {string} tableId
   * @param {() => (object|null)} authFn  what to authenticate with: {token}, {} for the
   *   account's seat (the cookie), or null (a spectator)
   * @param {{onState: Function, onError?: Function, onClock?: Function, onStatus?: Function,
   *          onChat?: Function, onChatHistory?: Function}} handlers  onError(error, id): `id`
   *   is the id of the message refused (null when none)
   * @param {{path?: string, key?: string}} where  another kind of live page on the same
   *   protocol: a duplicate room is {path: "/ws/duplicate/", key: "room"} (its states carry
   *   `room` where a table's carry `table`)
   */
  constructor(tableId, authFn, handlers, { path = "/ws/tables/", key = "table" } = {}) {
    this.tableId = tableId;
    this.authFn = authFn;
    this.handlers = handlers;
    this.path = path;
    this.key = key;
    this.socket = null;
    this.attempt = 0;
    this.closed = false;
    this.timer = null;
    this.pinger = null;
  }

  /** The socket's address; `?auth=1` when it will authenticate, so that the server sends no
   *  state before the answer to our auth (a stranger's view would empty our rack). */
  url(willAuth) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = willAuth ? "?auth=1" : "";
    return `${scheme}://${location.host}${this.path}${encodeURIComponent(this.tableId)}${query}`;
  }

  open() {
    this.closed = false;
    this.connect();
  }

  connect() {
    clearTimeout(this.timer);
    this.status("connecting");
    const auth = this.authFn();
    const socket = new WebSocket(this.url(Boolean(auth)));
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.attempt = 0;
      if (auth) socket.send(JSON.stringify({ ...auth, type: "auth" }));
      this.status("online");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_EVERY_MS);
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "state" && msg[this.key]) this.handlers.onState(msg[this.key]);
      else if (msg.type === "error" && this.handlers.onError) this.handlers.onError(msg.error || {}, msg.id ?? null);
      else if (msg.type === "clock" && this.handlers.onClock) this.handlers.onClock(msg);
      else if (msg.type === "chat" && msg.line && this.handlers.onChat) this.handlers.onChat(msg.line);
      else if (msg.type === "chat_history" && Array.isArray(msg.lines) && this.handlers.onChatHistory) {
        this.handlers.onChatHistory(msg.lines);
      }
    });
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      clearInterval(this.pinger);
      this.socket = null;
      if (this.closed) return;
      this.status("offline");
      const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
      this.attempt += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  /** Reconnect at once (e.g. after sitting down or leaving: the new socket authenticates
   *  with what we hold now, or stays a spectator's). */
  reconnect() {
    this.attempt = 0;
    const old = this.socket;
    this.socket = null;
    if (old) old.close();
    if (!this.closed) this.connect();
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.socket) this.socket.close();
    this.socket = null;
  }

  status(s) {
    if (this.handlers.onStatus) this.handlers.onStatus(s);
  }
}
