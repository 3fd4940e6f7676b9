// A websocket that stays connected: reconnects with exponential backoff (capped, with jitter),
// shows its state in any [data-live-status] element, and hands every JSON message to onMessage.
// The server is the truth: after each (re)connect, onOpen should ask for a fresh snapshot.
// heartbeat: { every: ms, message: () => object } is sent while connected, so a page whose broadcast was lost
// (a server process died between a commit and its broadcast) catches up within `every` without acting.

export function connectLive(path, { onMessage, onOpen, statusElement, heartbeat } = {}) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const url = `${scheme}://${window.location.host}${path}`;
  const status = statusElement || document.querySelector("[data-live-status]");
  let socket = null;
  let attempt = 0;
  let closedByPage = false;
  let stopped = false;
  let beat = null;

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
      if (heartbeat) beat = setInterval(() => api.send(heartbeat.message()), heartbeat.every);
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
      clearInterval(beat);
      if (closedByPage) return;
      if (event.code === 4401 || event.code === 4403 || event.code === 4429) {
        stopped = true;
        const why = { 4401: "logged out: reload the page", 4403: "no access", 4429: "open in too many tabs" };
        setStatus(why[event.code], "stopped");
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

  window.addEventListener("beforeunload", () => {
    closedByPage = true;
  });
  open();
  return api;
}
