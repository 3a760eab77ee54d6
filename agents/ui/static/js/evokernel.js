// EvoKernel's panel: correctness and best speedup over attempts; per task, every attempt with its verdict and
// reason, its code, the diff from the attempt it started from, and the Q-memory entries its retrieval chose.

import { lineChart } from "./charts.js";
import { badge, codeBlock, diffBlock, el, empty, num, panel, table, text } from "./common.js";

const state = { task: null, attempt: null };

function charts(curves) {
  const xs = (values) => values.map((v, i) => [i + 1, v]);
  const correctness = lineChart({ title: "Correctness over attempts", xLabel: "attempts per task", yLabel: "tasks correct",
    series: [{ name: "fraction of tasks with a correct kernel", points: xs(curves.correctness), step: true }] });
  const speedup = lineChart({ title: "Best speedup over attempts", xLabel: "attempts per task", yLabel: "× eager",
    reference: 1, series: [{ name: "median best speedup over the eager baseline", points: xs(curves.speedup_over_eager), step: true }] });
  return el("div", { class: "grid2" }, el("div", { id: "evo-correctness" }, correctness || empty("no attempt yet")),
    el("div", { id: "evo-speedup" }, speedup || empty("no correct kernel yet")));
}

function qNow(entry) {
  if (!entry.q_now || !entry.q_now.length) return "never updated";
  return el("div", {}, ...entry.q_now.map((q) => el("div", { title: q.signature },
    `${q.stage} ${num(q.q)} `, el("span", { class: "muted mono", text: `(${q.visits}×, ${q.signature.split("|").slice(-2).join("|")})` }))));
}

function memory(attempt) {
  if (!attempt.retrieved.length) return empty(attempt.stage === "draft" || attempt.stage === "refine"
    ? "its retrieval chose no memory entry (empty memory, or a method without memory)" : "no retrieval for this stage");
  return table([["id", "id"], ["kind", "kind"], ["group", "group"], ["similarity", "similarity", { num: 1 }],
    ["Q at retrieval", "q", { num: 1 }], ["Q now, per stage", qNow],
    ["entry", (e) => el("details", {}, el("summary", { text: (e.text || "").split("\n")[0].slice(0, 80) || "(text)" }), codeBlock(e.text))]],
  attempt.retrieved);
}

function attemptDetail(task, attempt) {
  const reason = attempt.feedback ? codeBlock(attempt.feedback) : empty("the verifier gave no feedback");
  return el("div", { id: "attempt-detail" },
    el("h3", { text: `${task} · attempt ${attempt.attempt} (${attempt.stage})` }),
    el("div", { class: "row" }, "verdict ", badge(attempt.status), attempt.latency_ms ? ` ${num(attempt.latency_ms)} ms` : "",
      attempt.speedup ? ` · ×${num(attempt.speedup)} over eager` : "", attempt.bottleneck ? ` · bottleneck ${attempt.bottleneck}` : ""),
    el("h3", { text: "Reason (verifier feedback)" }), reason,
    el("h3", { text: attempt.start_point ? `Diff from attempt ${attempt.start_point} (its start point)` : "Diff" }),
    attempt.diff ? diffBlock(attempt.diff) : empty(attempt.start_point ? "identical code" : "a draft: no start point"),
    el("h3", { text: "Code" }), codeBlock(attempt.code ?? "(the attempt's file is missing)"),
    el("h3", { text: `Q-memory entries retrieved${attempt.signature ? ` (state ${attempt.signature})` : ""}` }), memory(attempt));
}

export function renderEvokernel(container, view) {
  const tasks = view.tasks;
  const head = el("div", { class: "muted", text: `method ${view.method} on ${view.target}, budget ${view.budget} attempts per task` +
    (view.verifying.length ? ` · being verified: ${view.verifying.map((v) => `${v.task} #${v.attempt}`).join(", ")}` : "") });
  if (!tasks.length) { container.replaceChildren(panel("EvoKernel", head, empty("no attempt has finished yet"))); return; }
  if (!tasks.some((t) => t.task === state.task)) state.task = tasks[0].task;
  const current = tasks.find((t) => t.task === state.task);
  const picker = el("div", { class: "toolbar", id: "evo-tasks" }, "task ", ...tasks.map((t) =>
    el("button", { class: t.task === state.task ? "primary" : null, onclick: () => { state.task = t.task; state.attempt = null; renderEvokernel(container, view); } },
      `${t.task} (${t.attempts.length})`)));
  if (!current.attempts.some((a) => a.attempt === state.attempt)) state.attempt = current.attempts.at(-1).attempt;
  const rows = table([["#", "attempt", { num: 1 }], ["stage", "stage"], ["verdict", (a) => badge(a.status)],
    ["latency ms", "latency_ms", { num: 1 }], ["× eager", "speedup", { num: 1 }], ["reward", "reward", { num: 1 }],
    ["from", (a) => (a.start_point ? `#${a.start_point}` : "—")], ["memory", (a) => text(a.retrieved.length)]],
  current.attempts, { onRow: (a) => { state.attempt = a.attempt; renderEvokernel(container, view); } });
  rows.id = "evo-attempts";
  rows.querySelectorAll("tbody tr").forEach((tr, i) => { if (current.attempts[i].attempt === state.attempt) tr.classList.add("selected"); });
  const chosen = current.attempts.find((a) => a.attempt === state.attempt);
  container.replaceChildren(panel("EvoKernel", head, charts(view.curves), picker, rows, attemptDetail(current.task, chosen)));
}
