// The run's live event timeline (server-sent events): one compact line per event, filterable by kind.

import { el, num, seconds } from "./common.js";

const HIDDEN = new Set(["seq", "ts", "kind", "node_task", "command"]);
const LIMIT = 3000;

export function describe(event) {
  const e = event;
  switch (e.kind) {
    case "node.start": return e.node;
    case "node.end": return `${e.node} (${seconds(e.duration_s)}) updated ${(e.updated || []).join(", ")}`;
    case "node.error": return `${e.node}: ${e.error}`;
    case "model.call": return `${e.model} ${e.prompt_tokens}+${e.completion_tokens} tokens $${Number(e.cost_usd || 0).toFixed(4)} ${seconds(e.latency_s)}`;
    case "tool.call": return `${e.tool}${e.ok === false || e.error ? " failed" : ""} ${e.seconds !== undefined ? seconds(e.seconds) : ""}`;
    case "sandbox.result": return `${e.backend} exit ${e.returncode} in ${seconds(e.wall_s)}${e.timed_out ? " (timed out)" : ""}`;
    case "evokernel.attempt": return `${e.task} #${e.attempt} ${e.stage}: ${e.status}${e.latency_ms ? ` ${num(e.latency_ms)} ms` : ""}`;
    case "kernel.evaluate": return `${e.task} on ${e.target}: ${e.status}${e.speedup ? ` ×${num(e.speedup)}` : ""}`;
    case "run.end": return `${e.status} ${e.reason || ""}`;
    case "graph.paused": return `waiting: ${JSON.stringify(e.interrupts)}`;
    default: return Object.entries(e).filter(([k]) => !HIDDEN.has(k))
      .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`).join(" ");
  }
}

export class Timeline {
  constructor(container, counter, filter) {
    this.container = container; this.counter = counter; this.filter = filter; this.events = []; this.first = null;
    filter.addEventListener("input", () => this.redraw());
  }

  line(event) {
    if (this.first === null) this.first = event.ts;
    const bad = /error|failed|exceeded/.test(event.kind) || (event.kind === "run.end" && event.status === "failed");
    return el("div", { class: `ev${bad ? " error" : ""}`, "data-kind": event.kind, "data-seq": event.seq },
      el("span", { class: "muted", text: `#${event.seq}` }), el("span", { class: "muted", text: `+${(event.ts - this.first).toFixed(2)}s` }),
      el("span", { class: "kind", text: event.kind }), el("span", { class: "detail", text: describe(event), title: describe(event) }));
  }

  add(event) {
    this.events.push(event);
    if (this.events.length > LIMIT) this.events.shift();
    const wanted = this.filter.value.trim();
    if (!wanted || event.kind.includes(wanted)) {
      const stick = this.container.scrollTop + this.container.clientHeight >= this.container.scrollHeight - 20;
      this.container.append(this.line(event));
      if (this.container.childElementCount > LIMIT) this.container.firstElementChild.remove();
      if (stick) this.container.scrollTop = this.container.scrollHeight;
    }
    this.counter.textContent = `${this.events.length} events`;
  }

  redraw() {
    const wanted = this.filter.value.trim();
    this.container.replaceChildren(...this.events.filter((e) => !wanted || e.kind.includes(wanted)).map((e) => this.line(e)));
  }

  // Node tasks started and not yet ended: the nodes running now.
  running() {
    const open = new Map();
    for (const e of this.events) {
      if (e.kind === "node.start") open.set(e.task, e.node);
      else if (e.kind.startsWith("node.")) open.delete(e.task);
      else if (e.kind === "run.end") open.clear();
    }
    return new Set(open.values());
  }
}
