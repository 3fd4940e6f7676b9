// Polls the import job's JSON status and redraws the bar until the job is done or failed.
const box = document.getElementById("import-progress");
const bar = document.getElementById("import-bar");
const text = document.getElementById("import-text");
const error = document.getElementById("import-error");

function entries(n) {
  return `${n.toLocaleString()} ${n === 1 ? "entry" : "entries"}`;
}

function show(status) {
  bar.value = status.percent;
  bar.textContent = `${status.percent}%`;
  if (status.status === "done") {
    text.textContent = `Done: ${entries(status.entries)}.`;
  } else if (status.status === "failed") {
    text.textContent = "The import failed.";
    error.textContent = status.error;
    error.hidden = false;
  } else if (status.status === "queued") {
    text.textContent = "Waiting for a worker…"; // or for other imports and reports to end (config/yielding.py)
  } else {
    text.textContent = `${status.percent}% · ${entries(status.entries)} so far`;
  }
}

async function poll(url) {
  let delay = 1000;
  try {
    const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (response.ok) {
      const status = await response.json();
      show(status);
      if (status.finished) return;
    } else {
      delay = 5000;
    }
  } catch {
    delay = 5000; // offline or server restarting: keep trying, more slowly
  }
  setTimeout(() => poll(url), delay);
}

if (box) poll(box.dataset.statusUrl);
