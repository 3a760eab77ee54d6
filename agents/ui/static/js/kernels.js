// The kernel benchmark's panel: the per-task table and each solution's speedup.

import { barChart } from "./charts.js";
import { badge, el, empty, num, panel, table } from "./common.js";

export function renderKernels(container, view) {
  const rows = table([["task", "task"], ["solution", "solution"], ["status", (r) => badge(r.status)],
    ["speedup", "speedup", { num: 1 }], ["runtime ms", "runtime_ms", { num: 1 }], ["reference ms", "reference_ms", { num: 1 }],
    ["roofline", "roofline_fraction", { num: 1 }], ["bottleneck", "bottleneck"], ["reason", (r) => (r.reason || "").slice(0, 120)]], view.rows);
  rows.id = "kernel-rows";
  const chart = barChart({ title: "Speedup over the reference (1.0: as fast)", yLabel: "speedup", reference: 1,
    width: Math.max(560, 26 * view.speedups.length + 80),
    bars: view.speedups.map((s) => ({ label: s.label, value: s.speedup, color: s.correct ? "#3557d4" : "#c23a3a" })) });
  const summary = view.summary || {};
  container.replaceChildren(panel("Kernel benchmark",
    el("div", { class: "muted", text: `correctness ${num(summary.correctness)} · geomean speedup ${num(summary.geomean_speedup)}` +
      `${summary.simulated ? " · simulated" : ""}` }),
    el("div", { class: "scroll", id: "speedup-chart" }, chart || empty("no timed solution yet")),
    view.rows.length ? el("div", { class: "scroll" }, rows) : empty("no result yet")));
}
