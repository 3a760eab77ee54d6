// The runs list: every run with status, agent, policy or model, cost and best result, drawn from the rows the
// page comes with and kept live over SSE.

import { badge, cost, el, getJSON, num, text, when } from "./common.js";

const rows = new Map();
const selected = new Set();
const $ = (id) => document.getElementById(id);

function matches(row) {
  const agent = $("agent-filter").value, status = $("status-filter").value, words = $("search").value.toLowerCase();
  const haystack = [row.id, row.agent, row.model, row.policy, row.reason].join(" ").toLowerCase();
  return (!agent || row.agent === agent) && (!status || row.status === status) && (!words || haystack.includes(words));
}

function options(select, values) {
  const current = select.value;
  select.replaceChildren(el("option", { value: "", text: "all" }), ...[...values].sort().map((v) => el("option", { value: v, text: v })));
  select.value = current;
}

function line(row) {
  const box = el("input", { type: "checkbox", "aria-label": `select ${row.id}`, checked: selected.has(row.id) || null,
    onchange: (event) => { event.target.checked ? selected.add(row.id) : selected.delete(row.id); refreshButton(); } });
  const best = row.best === null || row.best === undefined ? "—" : text(row.best);
  return el("tr", { "data-id": row.id, "data-status": row.status },
    el("td", {}, box),
    el("td", { class: "mono" }, el("a", { href: `/runs/${encodeURIComponent(row.id)}`, text: row.id })),
    el("td", { text: row.agent || "—" }),
    el("td", {}, badge(row.status), row.status === "unreadable" ? el("div", { class: "muted", text: row.reason }) : null),
    el("td", { text: row.policy || row.model || "—" }),
    el("td", { class: "num", text: num(row.steps) }),
    el("td", { class: "num", text: num(row.calls) }),
    el("td", { class: "num", text: cost(row.cost_usd, row.cost_known !== false) }),
    el("td", { text: best.length > 60 ? best.slice(0, 57) + "…" : best, title: best }),
    el("td", { class: "muted", text: when(row.updated || row.created) }));
}

function render() {
  const shown = [...rows.values()].filter(matches).reverse();
  options($("agent-filter"), new Set([...rows.values()].map((r) => r.agent).filter(Boolean)));
  options($("status-filter"), new Set([...rows.values()].map((r) => r.status)));
  $("count").textContent = `${shown.length} of ${rows.size} runs`;
  if (!rows.size) { $("runs").replaceChildren(el("div", { class: "empty", text: "no runs yet: start one with `agent run demo`" })); return; }
  const head = el("tr", {}, ["", "run", "agent", "status", "policy / model", "steps", "calls", "cost", "best", "updated"]
    .map((title, i) => el("th", { class: i >= 5 && i <= 7 ? "num" : null, text: title })));
  $("runs").replaceChildren(el("table", { id: "runs-table" }, el("thead", {}, head), el("tbody", {}, shown.map(line))));
}

function refreshButton() {
  $("compare").disabled = selected.size < 2;
  $("compare").textContent = selected.size ? `compare ${selected.size} selected` : "compare selected";
}

// The rows the page came with (the server inlines them), drawn at once; the version of the list they are.
function inlined() {
  const data = $("runs-data");
  if (!data) return "";
  const { version, rows: list } = JSON.parse(data.textContent);
  list.forEach((r) => rows.set(r.id, r));
  render();
  return version;
}

// Live changes: the stream sends the whole list only if it is not the version the page already shows.
function follow(since) {
  const source = new EventSource(`/api/runs/stream${since ? `?since=${encodeURIComponent(since)}` : ""}`);
  source.addEventListener("open", () => $("live").classList.add("on"));
  source.addEventListener("error", () => $("live").classList.remove("on"));
  source.addEventListener("runs", (event) => { rows.clear(); JSON.parse(event.data).forEach((r) => rows.set(r.id, r)); render(); });
  source.addEventListener("row", (event) => { const row = JSON.parse(event.data); rows.set(row.id, row); render(); });
  source.addEventListener("removed", (event) => { rows.delete(JSON.parse(event.data)); render(); });
}

for (const id of ["agent-filter", "status-filter", "search"]) $(id).addEventListener("input", render);
$("compare").addEventListener("click", () => { location.href = `/compare?ids=${[...selected].map(encodeURIComponent).join(",")}`; });
follow(inlined());
getJSON("/api/session").then((s) => { $("where").textContent = s.root; }).catch(() => {});
