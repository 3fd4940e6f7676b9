// A websocket that stays connected: reconnects with exponential backoff (capped, with jitter),
// shows its state in any [data-live-status] element, and hands every JSON message to onMessage.
// The server is the truth: after each (re)connect, onOpen should ask for a fresh snapshot.

export function connectLive(path, { onMessage, onOpen, statusElement } = {}) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const url = `${scheme}://${window.location.host}${path}`;
  const status = statusElement || document.querySelector("[data-live-status]");
  let socket = null;
  let attempt = 0;
  let closedByPage = false;
  let stopped = false;

  function setStatus(text, state) {
    if (!status) return;
    status.textContent = text;
    status.dataset.state = state;
  }

  function open() {
    if (stopped) return;
    setStatus(attempt ? "reconnecting…" : "connecting…", "connecting");
    socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      attempt = 0;
      setStatus("live", "live");
      if (onOpen) onOpen(api);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (onMessage) onMessage(message, api);
    });
    socket.addEventListener("close", (event) => {
      if (closedByPage) return;
      if (event.code === 4401 || event.code === 4403) {
        stopped = true;
        setStatus(event.code === 4401 ? "logged out: reload the page" : "no access", "stopped");
        return;
      }
      attempt += 1;
      const delay = Math.min(30000, 500 * 2 ** Math.min(attempt, 6)) * (0.75 + Math.random() * 0.5);
      setStatus(`offline: reconnecting in ${Math.round(delay / 1000)} s`, "offline");
      setTimeout(open, delay);
    });
  }

  const api = {
    send(message) {
      if (socket && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify(message));
        return true;
      }
      return false;
    },
    close() {
      closedByPage = true;
      if (socket) socket.close();
    },
    stop(text) {
      stopped = true;
      closedByPage = true;
      setStatus(text, "stopped");
      if (socket) socket.close();
    },
  };

  window.addEventListener("beforeunload", () => { closedByPage = true; });
  open();
  return api;
}
