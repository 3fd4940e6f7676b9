// Build a report on demand and show the job's progress: POST the build form, then poll the job's JSON status until
// it is done (the page then reloads to show the new report) or failed (the reason is shown).
const box = document.querySelector("[data-report-build]");

if (box) {
  const form = box.querySelector("[data-build-form]");
  const button = box.querySelector("[data-build-button]");
  const progress = box.querySelector("[data-progress]");
  const meter = progress.querySelector("[role=progressbar]");
  const bar = progress.querySelector("[data-progress-bar]");
  const text = progress.querySelector("[data-progress-text]");
  // Widths are set here, not in a style attribute: the Content-Security-Policy allows no inline styles.
  bar.style.width = `${meter.getAttribute("aria-valuenow")}%`;

  const show = (job) => {
    progress.hidden = false;
    bar.style.width = `${job.percent}%`;
    meter.setAttribute("aria-valuenow", String(job.percent));
    text.textContent = job.status === "queued" ? "Waiting for a worker…" : `Building the report… ${job.percent}%`;
  };

  const poll = async (url) => {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const job = await response.json();
      show(job);
      if (job.status === "done") {
        text.textContent = "Done. Loading the report…";
        window.location.reload();
        return;
      }
      if (job.status === "failed") {
        text.textContent = `The report could not be built: ${job.error || "unknown error"}. Try again.`;
        button.disabled = false;
        return;
      }
    } catch {
      text.textContent = "Connection lost; still trying…";
    }
    setTimeout(() => poll(url), 700);
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      const response = await fetch(form.action, {
        method: "POST",
        body: new FormData(form),
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const job = await response.json();
      show(job);
      poll(job.status_url);
    } catch {
      progress.hidden = false;
      text.textContent = "The report could not be started. Reload the page and try again.";
      button.disabled = false;
    }
  });

  if (progress.dataset.statusUrl) {
    button.disabled = true;
    poll(progress.dataset.statusUrl);
  }
}
