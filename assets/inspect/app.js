// The inspector's page: plain JavaScript, no framework, no network beyond its own server.
// Every text from the server goes in through textContent; only the server-drawn SVG is markup.

import { schemaForm } from "/assets/form.js";

const $ = (id) => document.getElementById(id);
const START = "__start__";
const END = "__end__";

const page = { info: undefined, thread: undefined, checkpoints: [], selected: undefined, runSource: undefined, form: undefined };

function showProblem(message) {
  const box = document.createElement("div");
  box.className = "problem";
  box.textContent = message;
  $("problems").append(box);
}

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  let data;
  try {
    data = await response.json();
  } catch {
    throw new Error(`inspect: ${path} answered ${response.status} with no JSON.`);
  }
  if (!response.ok) throw new Error(data.error ?? `inspect: ${path} answered ${response.status}.`);
  return data;
}

function svgNodes(name) {
  return document.querySelectorAll(`#graph .node[data-node="${CSS.escape(name)}"]`);
}

function resetGraph() {
  for (const el of document.querySelectorAll("#graph .node, #graph .link")) el.classList.remove("visited", "active", "taken", "paused");
}

function lightTrace(trace, next) {
  resetGraph();
  let previous = START;
  for (const el of svgNodes(START)) el.classList.add("visited");
  for (const node of trace) {
    lightStep(previous, node);
    previous = node;
  }
  for (const node of next) for (const el of svgNodes(node)) el.classList.add("paused");
  if (next.length === 0 && trace.length > 0) lightStep(previous, END);
}

function lightStep(from, node) {
  for (const el of document.querySelectorAll("#graph .node.active")) el.classList.remove("active");
  for (const el of svgNodes(node)) el.classList.add("visited", "active");
  for (const link of document.querySelectorAll(`#graph .link[data-to="${CSS.escape(node)}"]`)) {
    if (link.dataset.from === from || (link.dataset.from ?? "").startsWith("join_")) link.classList.add("taken");
  }
}

function json(value) {
  return JSON.stringify(value, null, 2);
}

function brief(value) {
  const text = JSON.stringify(value);
  return text === undefined ? "" : text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

// ---- live runs ----

function watchRun(started, label) {
  page.runSource?.close();
  $("steps").replaceChildren();
  $("run-status").className = "status";
  $("run-status").textContent = `${label}: running on thread ${started.threadId}…`;
  resetGraph();
  for (const el of svgNodes(START)) el.classList.add("visited");
  let previous = START;
  const source = new EventSource(started.events);
  page.runSource = source;
  source.addEventListener("step", (message) => {
    const step = JSON.parse(message.data);
    lightStep(previous, step.node);
    previous = step.node;
    const item = document.createElement("li");
    item.dataset.node = step.node;
    const name = document.createElement("strong");
    name.textContent = step.node;
    const update = document.createElement("code");
    update.textContent = ` ${brief(step.update)}`;
    item.append(name, update);
    $("steps").append(item);
    $("run-state").textContent = json(step.state);
  });
  // What a node wrote with context.writer: the same events the observability stream carries.
  source.addEventListener("custom", (message) => {
    const custom = JSON.parse(message.data);
    const item = document.createElement("li");
    item.className = "custom";
    item.textContent = `${custom.node} wrote ${brief(custom.event)}`;
    $("steps").append(item);
  });
  source.addEventListener("end", async (message) => {
    source.close();
    const end = JSON.parse(message.data);
    $("run-state").textContent = json(end.state);
    if (end.status === "paused") {
      for (const node of end.next) for (const el of svgNodes(node)) el.classList.add("paused");
      $("run-status").textContent = `${label}: paused before ${end.next.join(", ")} (thread ${end.threadId})`;
    } else {
      lightStep(previous, END);
      $("run-status").textContent = `${label}: done (thread ${end.threadId})`;
    }
    await openThread(end.threadId, end.checkpointId);
    await refreshCoverage(false);
  });
  source.addEventListener("failed", (message) => {
    source.close();
    const failed = JSON.parse(message.data);
    $("run-status").className = "status failed";
    $("run-status").textContent = `${label}: failed`;
    showProblem(failed.message);
  });
}

async function startRun(event) {
  event.preventDefault();
  const interruptBefore = [...document.querySelectorAll("#interrupts input:checked")].map((box) => box.value);
  let input;
  const text = $("run-input").value.trim();
  if (page.form !== undefined) {
    try {
      input = page.form.read();
    } catch (error) {
      showProblem(error.message);
      return;
    }
  } else if (text !== "") {
    try {
      input = JSON.parse(text);
    } catch (error) {
      showProblem(`The input is not JSON: ${error.message}`);
      return;
    }
  }
  try {
    const started = await api("/api/runs", { ...(input === undefined ? {} : { input }), interruptBefore });
    watchRun(started, "run");
  } catch (error) {
    showProblem(error.message);
  }
}

// ---- thread history ----

function rememberThread(threadId) {
  if ([...$("known-threads").options].some((option) => option.value === threadId)) return;
  const option = document.createElement("option");
  option.value = threadId;
  $("known-threads").append(option);
}

async function openThread(threadId, select) {
  $("thread-id").value = threadId;
  $("thread-status").className = "status";
  $("thread-status").textContent = "";
  let history;
  try {
    history = await api(`/api/threads/${encodeURIComponent(threadId)}`);
  } catch (error) {
    $("timeline").replaceChildren();
    $("checkpoint").hidden = true;
    $("thread-status").className = "status failed";
    $("thread-status").textContent = error.message;
    return;
  }
  rememberThread(threadId);
  page.thread = history;
  $("thread-status").textContent =
    `${history.checkpoints.length} checkpoints, newest first` +
    (history.paused.length > 0 ? `; paused before ${history.paused.join(", ")}` : "") +
    (history.writable ? "" : "; read-only");
  const list = history.checkpoints.map((checkpoint) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.checkpoint = checkpoint.id;
    button.textContent = `step ${checkpoint.step} · ${checkpoint.source} · wrote ${checkpoint.writes.join(", ") || "-"} · next ${checkpoint.next.join(", ") || "END"}`;
    button.addEventListener("click", () => selectCheckpoint(checkpoint.id));
    item.append(button);
    return item;
  });
  $("timeline").replaceChildren(...list);
  await selectCheckpoint(select ?? history.latestId);
}

async function selectCheckpoint(checkpointId) {
  const threadId = page.thread.threadId;
  let detail;
  try {
    detail = await api(`/api/threads/${encodeURIComponent(threadId)}/checkpoints/${encodeURIComponent(checkpointId)}`);
  } catch (error) {
    showProblem(error.message);
    return;
  }
  page.selected = detail;
  for (const button of document.querySelectorAll("#timeline button")) button.classList.toggle("selected", button.dataset.checkpoint === checkpointId);
  $("checkpoint").hidden = false;
  $("checkpoint-title").textContent = `Checkpoint ${detail.step} (${detail.id})${detail.paused.length > 0 ? ` — paused before ${detail.paused.join(", ")}` : ""}`;
  $("checkpoint-state").textContent = json(detail.state);
  const rows = detail.diff.map((change) => {
    const row = document.createElement("tr");
    row.className = change.kind;
    for (const cell of [change.path, change.kind, brief(change.before), brief(change.after)]) {
      const td = document.createElement("td");
      td.textContent = cell;
      row.append(td);
    }
    return row;
  });
  $("diff").tBodies[0].replaceChildren(...rows);
  const writable = page.thread.writable;
  $("approve").hidden = detail.paused.length === 0;
  $("resume-here").hidden = detail.paused.length > 0 || detail.next.length === 0;
  for (const id of ["approve", "resume-here", "edit"]) $(id).disabled = !writable;
  $("edit-form").hidden = false;
  lightTrace(detail.trace, detail.next);
}

async function resume(action, edit) {
  const detail = page.selected;
  if (detail === undefined) return;
  const threadId = page.thread.threadId;
  const body = { action, ...(detail.id === page.thread.latestId ? {} : { checkpointId: detail.id }), ...(edit === undefined ? {} : { edit }) };
  try {
    const started = await api(`/api/threads/${encodeURIComponent(threadId)}/resume`, body);
    watchRun(started, action === "edit" ? "edit" : action === "approve" ? "approve" : "resume");
  } catch (error) {
    showProblem(error.message);
  }
}

function editValue() {
  const text = $("edit-value").value;
  if (page.info.graph.label === "report") return { notice: text };
  try {
    return { update: JSON.parse(text) };
  } catch (error) {
    showProblem(`The edit is not JSON: ${error.message}`);
    return undefined;
  }
}

// ---- coverage ----

let coverageShown = false;

async function refreshCoverage(toggle) {
  if (toggle) coverageShown = !coverageShown;
  $("show-coverage").textContent = coverageShown ? "Hide coverage" : "Show coverage";
  for (const link of document.querySelectorAll("#graph .link.missed")) link.classList.remove("missed");
  if (!coverageShown) {
    $("coverage-summary").textContent = "";
    $("coverage-missing").replaceChildren();
    return;
  }
  let coverage;
  try {
    coverage = await api("/api/coverage");
  } catch (error) {
    showProblem(error.message);
    return;
  }
  for (const index of coverage.missedLinks) document.querySelector(`#graph .link[data-link="${index}"]`)?.classList.add("missed");
  $("coverage-summary").textContent = `${coverage.covered}/${coverage.total} transitions taken by ${coverage.runs} run${coverage.runs === 1 ? "" : "s"}; dashed red: never taken`;
  $("coverage-missing").replaceChildren(
    ...coverage.missing.map((label) => {
      const item = document.createElement("li");
      item.textContent = label;
      return item;
    }),
  );
}

// ---- start ----

async function main() {
  let info;
  try {
    info = await api("/api/info");
  } catch (error) {
    $("graph").replaceChildren();
    showProblem(error.message);
    return;
  }
  page.info = info;
  $("graph-label").textContent = `— ${info.graph.label}`;
  $("store-label").textContent = `database: ${info.store.label}${info.store.writable ? "" : " (read-only: restart with --allow-writes to resume, fork or edit)"}`;
  if (info.store.problem !== undefined) showProblem(info.store.problem);
  if (info.graph.problem !== undefined) {
    $("graph").replaceChildren();
    showProblem(info.graph.problem);
    $("live-panel").hidden = true;
    $("show-coverage").disabled = true;
  } else {
    $("graph").innerHTML = info.graph.svg;
    if (!info.graph.canRun) $("live-panel").hidden = true;
    for (const node of info.graph.interruptChoices) {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = node;
      box.id = `pause-${node}`;
      box.checked = node === "publish";
      label.append(box, ` ${node}`);
      $("interrupts").append(label);
    }
    if (info.graph.interruptChoices.length === 0) $("interrupts").hidden = true;
    $("run-input").value = info.graph.defaultInput === null ? "" : JSON.stringify(info.graph.defaultInput);
    // A graph with an input schema gets a form built from it instead of the JSON box.
    page.form = schemaForm(info.graph.inputSchema, info.graph.defaultInput ?? {});
    if (page.form !== undefined) {
      $("input-form").replaceChildren(...page.form.elements);
      $("run-input").hidden = true;
      $("run-input-label").hidden = true;
    }
    $("edit-label").textContent = info.graph.label === "report" ? "New notice for the draft" : "Update (JSON), applied with updateState";
  }
  for (const threadId of info.threads) rememberThread(threadId);
  $("run-form").addEventListener("submit", startRun);
  $("thread-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const threadId = $("thread-id").value.trim();
    if (threadId !== "") void openThread(threadId);
  });
  $("approve").addEventListener("click", () => void resume("approve"));
  $("resume-here").addEventListener("click", () => void resume("continue"));
  $("edit-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const edit = editValue();
    if (edit !== undefined) void resume("edit", edit);
  });
  $("show-coverage").addEventListener("click", () => void refreshCoverage(true));
  const wanted = new URLSearchParams(location.search).get("thread") ?? info.threads[0];
  if (wanted !== undefined) await openThread(wanted);
  document.body.dataset.ready = "true";
}

void main();
