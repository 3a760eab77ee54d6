// A run's page: summary, graph, actions, live timeline, tokens/cost/latency, the agent's own panel and the report.

import { renderActions } from "./actions.js";
import { badge, cost, el, empty, getJSON, keyValues, num, panel, seconds, showError, table, text } from "./common.js";
import { drawDag } from "./dag.js";
import { renderPanel } from "./panels.js";
import { Timeline } from "./timeline.js";

const runId = decodeURIComponent(location.pathname.split("/").pop());
const $ = (id) => document.getElementById(id);
const timeline = new Timeline($("timeline"), $("event-count"), $("kind-filter"));
let detail = null, offset = 0, source = null, refreshTimer = null, actionsKey = null;

function renderSummary(info) {
  document.title = `agentkiln · ${info.id}`;
  $("title").replaceChildren(`${info.agent} run ${info.id} `, badge(info.status));
  const shown = { agent: info.agent, status: info.status, reason: info.reason || undefined, model: info.model,
    created: info.created, steps: info.steps, "model calls": info.calls, "tokens in": info.prompt_tokens,
    "tokens out": info.completion_tokens, cost: cost(info.cost_usd, info.cost_known), best: info.best,
    resumes: info.resumes || undefined, "waiting for": info.waiting_for, directory: info.dir };
  $("summary").replaceChildren(el("h2", { text: "Summary" }), keyValues(shown));
}

function renderGraph(shape, steps) {
  const box = $("graph");
  if (!shape) { box.replaceChildren(el("h2", { text: "Graph" }), empty("no graph saved for this run (it was made before the dashboard saved graphs, or its agent runs no LangGraph graph)")); return; }
  const active = timeline.running();
  const nodes = shape.nodes.map((id) => ({ id, label: id, sub: id.startsWith("__") ? null : `×${steps[id] || 0}`,
    classes: [id.startsWith("__") ? "terminal" : "", active.has(id) ? "active" : ""].join(" "), title: id }));
  const edges = shape.edges.map((e) => ({ source: e.source, target: e.target, dashed: e.conditional, observed: e.observed }));
  box.replaceChildren(el("h2", { text: "Graph" }), el("div", { class: "scroll", id: "graph-drawing" }, drawDag(nodes, edges)),
    el("div", { class: "legend" }, "solid: always, dashed: conditional, dotted: a route this run took that the compiled graph decides at run time; ×N: finished runs of the node; blue: running now"),
    el("details", {}, el("summary", { text: "Mermaid (from the compiled graph)" }), el("pre", {}, shape.mermaid || "")));
}

function renderCosts(data) {
  const nodes = table([["node", "node"], ["runs", "runs", { num: 1 }], ["errors", "errors", { num: 1 }],
    ["total", (r) => seconds(r.total_s), { num: 1 }], ["mean", (r) => seconds(r.mean_s), { num: 1 }],
    ["max", (r) => seconds(r.max_s), { num: 1 }], ["model calls", "calls", { num: 1 }],
    ["tokens in", "prompt_tokens", { num: 1 }], ["tokens out", "completion_tokens", { num: 1 }],
    ["cost", (r) => cost(r.cost_usd), { num: 1 }], ["model time", (r) => seconds(r.model_s), { num: 1 }]], data.nodes);
  const calls = data.model_calls.length ? table([["#", "seq"], ["node", "node"], ["model", "model"],
    ["tokens in", "prompt_tokens", { num: 1 }], ["tokens out", "completion_tokens", { num: 1 }],
    ["cost", (r) => cost(r.cost_usd, r.cost_known), { num: 1 }], ["latency", (r) => seconds(r.latency_s), { num: 1 }],
    ["cached", (r) => (r.cached ? "yes" : "")], ["error", (r) => r.error || ""]], data.model_calls) : empty("no model calls (offline policy)");
  $("costs").replaceChildren(el("h2", { text: "Tokens, cost and latency" }), el("h3", { text: "Per node" }),
    data.nodes.length ? nodes : empty("no node has run yet"), el("h3", { text: "Per model call" }), calls);
}

function renderReport(report) {
  const box = $("report");
  if (!report) { box.replaceChildren(el("h2", { text: "Report" }), empty("no report yet (written when the run stops)")); return; }
  const summary = Object.fromEntries(Object.entries(report.summary || {}).map(([k, v]) =>
    [k, typeof v === "object" && v !== null ? JSON.stringify(v).slice(0, 300) : v]));
  const rows = (report.rows || []).slice(0, 300);
  const keys = report.columns?.length ? report.columns : [...new Set(rows.flatMap((r) => Object.keys(r)))].slice(0, 14);
  box.replaceChildren(el("h2", { text: report.title || "Report" }), keyValues(summary),
    rows.length ? el("div", { class: "scroll" }, table(keys.map((k) => [k, (r) => text(r[k])]), rows)) : null);
}

async function load() {
  try {
    detail = await getJSON(`/api/runs/${encodeURIComponent(runId)}`);
  } catch (error) { showError($("problem"), error); return; }
  renderSummary(detail.summary);
  renderGraph(detail.graph, detail.summary.steps_by_node || {});
  const key = JSON.stringify([detail.summary.status, detail.waiting, detail.settings.runtime]);
  if (key !== actionsKey) {  // typed guidance or answers survive the refreshes a live run causes
    actionsKey = key;
    renderActions($("actions"), detail, (action) => { if (action === "resume") setTimeout(follow, 1500); refresh(); });
  }
  renderCosts(detail);
  renderReport(detail.report);
  try {
    const view = await getJSON(`/api/runs/${encodeURIComponent(runId)}/agent`);
    if (view) renderPanel($("agent"), view);
  } catch (error) { $("agent").replaceChildren(panel("Agent view", el("div", { class: "message error", text: error.message }))); }
}

function refresh() {
  if (refreshTimer) return;
  refreshTimer = setTimeout(() => { refreshTimer = null; load(); }, 1200);
}

function follow() {
  if (source) source.close();
  source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events?offset=${offset}`);
  source.addEventListener("open", () => $("live").classList.add("on"));
  source.addEventListener("run-event", (event) => {
    const item = JSON.parse(event.data);
    offset = Number(event.lastEventId) || offset;  // the byte offset after this event in events.jsonl
    timeline.add(item);
    if (detail) refresh();
  });
  source.addEventListener("end", () => { source.close(); $("live").classList.remove("on"); refresh(); });
  source.addEventListener("error", () => $("live").classList.remove("on"));
}

getJSON("/api/session").then((s) => { $("where").textContent = s.root; }).catch(() => {});
load().then(follow);
