// Line and bar charts drawn as SVG from the run's own numbers (no chart library).

const SVG = "http://www.w3.org/2000/svg";
const COLORS = ["#3557d4", "#e07b39", "#1f8a4c", "#c23a3a", "#7c4dbc", "#0f8b8d", "#b7791f", "#db2777"];

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined && value !== null) node.setAttribute(key, value);
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

function label(x, y, content, attrs = {}) { const t = svg("text", { x, y, ...attrs }); t.textContent = content; return t; }
function tip(content) { const t = svg("title"); t.textContent = content; return t; }

export function color(index) { return COLORS[index % COLORS.length]; }

function ticks(low, high, count = 5) {
  if (!(high > low)) return [low];
  const step = Math.pow(10, Math.floor(Math.log10((high - low) / count)));
  const nice = [1, 2, 2.5, 5, 10].map((m) => m * step).find((s) => (high - low) / s <= count) || step * 10;
  const out = [];
  for (let v = Math.ceil(low / nice) * nice; v <= high + nice * 1e-9; v += nice) out.push(Number(v.toPrecision(10)));
  return out;
}

function frame({ width, height, xs, ys, xLabel, yLabel, title, xTicks = true }) {
  const m = { left: 56, right: 14, top: title ? 26 : 10, bottom: 40 };
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (y0 === y1) { y0 -= Math.abs(y0) * 0.1 || 0.5; y1 += Math.abs(y1) * 0.1 || 0.5; }
  else { const pad = (y1 - y0) * 0.06; y0 = y0 >= 0 && y0 - pad < 0 ? 0 : y0 - pad; y1 += pad; }
  const sx = (x) => m.left + (x1 === x0 ? 0.5 : (x - x0) / (x1 - x0)) * (width - m.left - m.right);
  const sy = (y) => height - m.bottom - ((y - y0) / (y1 - y0)) * (height - m.top - m.bottom);
  const root = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img" });
  if (title) root.append(label(m.left, 16, title, { "font-weight": 600 }));
  const grid = svg("g", { class: "grid" }), axis = svg("g", { class: "axis" });
  for (const t of ticks(y0, y1)) {
    grid.append(svg("line", { x1: m.left, x2: width - m.right, y1: sy(t), y2: sy(t) }));
    axis.append(label(m.left - 6, sy(t) + 4, String(t), { "text-anchor": "end" }));
  }
  const integers = xs.every(Number.isInteger);
  const xMarks = ticks(x0, x1, Math.min(8, integers ? Math.max(1, x1 - x0) : 8)).filter((t) => !integers || Number.isInteger(t));
  if (xTicks) for (const t of xMarks) axis.append(label(sx(t), height - m.bottom + 16, String(t), { "text-anchor": "middle" }));
  axis.append(svg("line", { x1: m.left, x2: width - m.right, y1: height - m.bottom, y2: height - m.bottom }),
    svg("line", { x1: m.left, x2: m.left, y1: m.top, y2: height - m.bottom }));
  if (xLabel) axis.append(label((m.left + width - m.right) / 2, height - 6, xLabel, { "text-anchor": "middle", class: "muted" }));
  if (yLabel) axis.append(label(14, (m.top + height - m.bottom) / 2, yLabel,
    { "text-anchor": "middle", transform: `rotate(-90 14 ${(m.top + height - m.bottom) / 2})` }));
  root.append(grid, axis);
  return { root, sx, sy, y0, y1 };
}

// series: [{name, points: [[x, y], ...], step: bool, dots: bool, line: bool}]; reference: a horizontal line (e.g. 1.0).
export function lineChart({ series, width = 560, height = 260, xLabel, yLabel, title, reference }) {
  const points = series.flatMap((s) => s.points.filter((p) => p[1] !== null && p[1] !== undefined));
  if (!points.length) return null;
  const ys = points.map((p) => p[1]).concat(reference !== undefined ? [reference] : []);
  const { root, sx, sy } = frame({ width, height, xs: points.map((p) => p[0]), ys, xLabel, yLabel, title });
  if (reference !== undefined) root.append(svg("line", { x1: sx(Math.min(...points.map((p) => p[0]))),
    x2: sx(Math.max(...points.map((p) => p[0]))), y1: sy(reference), y2: sy(reference), stroke: "#9aa3b2", "stroke-dasharray": "4 4" }));
  series.forEach((s, index) => {
    const shown = s.points.filter((p) => p[1] !== null && p[1] !== undefined);
    const c = s.color || color(index);
    let d = "";
    shown.forEach(([x, y], i) => {
      if (i === 0) d += `M${sx(x)},${sy(y)}`;
      else d += s.step ? `H${sx(x)}V${sy(y)}` : `L${sx(x)},${sy(y)}`;
    });
    if (s.line !== false) root.append(svg("path", { d, fill: "none", stroke: c, "stroke-width": 2, class: "series", "data-name": s.name }));
    if (s.dots !== false) for (const [x, y] of shown) {
      root.append(svg("circle", { cx: sx(x), cy: sy(y), r: 3, fill: c }, tip(`${s.name}: ${x} → ${Number(y.toPrecision(5))}`)));
    }
  });
  return withLegend(root, series);
}

// bars: [{label, value, color}]
export function barChart({ bars, width = 560, height = 260, yLabel, title, reference }) {
  const shown = bars.filter((b) => typeof b.value === "number");
  if (!shown.length) return null;
  const values = shown.map((b) => b.value).concat([0, reference ?? 0]);
  const { root, sy } = frame({ width, height, xs: [0, 1], ys: values, yLabel, title, xTicks: false });
  const left = 56, inner = width - left - 14, slot = inner / shown.length;
  shown.forEach((bar, index) => {
    const x = left + index * slot + slot * 0.15, top = sy(Math.max(bar.value, 0)), base = sy(Math.min(bar.value, 0));
    root.append(svg("rect", { x, y: top, width: slot * 0.7, height: Math.max(1, base - top), fill: bar.color || color(0),
      class: "bar", "data-label": bar.label }, tip(`${bar.label}: ${Number(bar.value.toPrecision(5))}`)));
  });
  if (reference !== undefined) root.append(svg("line", { x1: left, x2: width - 14, y1: sy(reference), y2: sy(reference),
    stroke: "#667085", "stroke-dasharray": "4 4" }));
  return root;
}

function withLegend(chart, series) {
  const box = document.createElement("div");
  const legend = document.createElement("div");
  legend.className = "legend";
  series.forEach((s, index) => {
    const item = document.createElement("span");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = s.color || color(index);
    item.append(swatch, s.name);
    legend.append(item);
  });
  box.append(chart, legend);
  return box;
}
