// Runs side by side: one column per run, one row per summary or report number (differences marked), and the
// curves the runs share drawn on common axes.

import { lineChart } from "./charts.js";
import { el, empty, getJSON, panel, showError, text } from "./common.js";

const CURVES = { correctness: ["Correctness over attempts", "attempts per task", "tasks correct"],
  speedup_over_eager: ["Best speedup over attempts", "attempts per task", "× eager"],
  best_gap: ["Best gap over evaluations", "evaluations", "train gap %"] };

function grid(runs) {
  const keys = (part) => [...new Set(runs.flatMap((r) => Object.keys(r[part])))];
  const head = el("tr", {}, el("th", { text: "" }), runs.map((r) =>
    el("th", {}, el("a", { href: `/runs/${encodeURIComponent(r.id)}`, class: "mono", text: r.id }), el("div", { class: "muted", text: r.label }))));
  const rows = [["summary", keys("summary")], ["report", keys("report")]].flatMap(([part, names]) => names.map((key) => {
    const values = runs.map((r) => text(r[part][key]));
    const differs = new Set(values).size > 1;
    return el("tr", { class: differs ? "differs" : null }, el("th", { text: key }),
      values.map((v) => el("td", { class: differs ? "num mono" : "num muted", style: differs ? "font-weight:600" : null, text: v })));
  }));
  return el("table", { id: "compare-table", class: "compare" }, el("colgroup", {}, el("col", { style: "width:220px" }),
    runs.map(() => el("col", {}))), el("thead", {}, head), el("tbody", {}, rows));
}

function curves(runs) {
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.curves)))];
  return names.map((name) => {
    const [title, xLabel, yLabel] = CURVES[name] || [name, "step", name];
    const series = runs.filter((r) => r.curves[name]?.length).map((r) => ({ name: `${r.label} (${r.id.slice(-6)})`,
      points: r.curves[name].map((v, i) => [i + 1, v]), step: true }));
    return el("div", { "data-curve": name }, lineChart({ title, xLabel, yLabel, series, reference: name === "speedup_over_eager" ? 1 : undefined }));
  });
}

async function main() {
  const ids = new URLSearchParams(location.search).get("ids") || "";
  if (!ids) {
    document.getElementById("table").replaceChildren(empty("select two or more runs on the runs list, then “compare selected”"));
    return;
  }
  try {
    const data = await getJSON(`/api/compare?ids=${encodeURIComponent(ids)}`);
    const drawn = curves(data.runs);
    document.getElementById("curves").replaceChildren(drawn.length ? panel("Curves", el("div", { class: "grid2" }, drawn)) : "");
    document.getElementById("table").replaceChildren(el("h2", { text: `${data.runs.length} runs` }), el("div", { class: "scroll" }, grid(data.runs)));
  } catch (error) { showError(document.getElementById("table"), error); }
}

getJSON("/api/session").then((s) => { document.getElementById("where").textContent = s.root; }).catch(() => {});
main();
