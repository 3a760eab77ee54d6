// The run page's actions: pause, guidance, spending limits, resume (with the answer a paused run waits for).
// Every action needs the token `agent ui` printed; it is kept for this browser tab only.

import { el, postAction, setToken, token } from "./common.js";

const RUNNING = "running";

function field(label, input) { return el("label", { class: "row" }, el("span", { class: "muted", text: label }), input); }

export function renderActions(container, detail, onDone) {
  const summary = detail.summary, waiting = detail.waiting || { interrupts: [], accepts: [] };
  const message = el("div", { class: "message", id: "action-message" });
  const say = (text, ok) => { message.textContent = text; message.className = `message ${ok ? "ok" : "error"}`; };
  const act = async (action, body) => {
    try {
      const result = await postAction(summary.id, action, body);
      say(result.done, true);
      onDone(action);
    } catch (error) { say(error.message, false); }
  };
  const tokenInput = el("input", { type: "password", id: "token", placeholder: "token printed by agent ui", size: 26,
    value: token(), oninput: (e) => setToken(e.target.value) });
  const running = summary.status === RUNNING, finished = summary.status === "finished";

  const pause = el("button", { id: "pause", disabled: !running || null, onclick: () => act("pause", {}) }, "pause");
  const guidance = el("textarea", { id: "guidance-text", placeholder: "guidance for the agent's next steps" });
  const guide = el("button", { id: "guide", onclick: () => act("guidance", { text: guidance.value }) }, "add guidance");
  const limits = ["max_cost_usd", "max_tokens", "max_calls"].map((key) =>
    el("input", { type: "number", min: 0, step: key === "max_cost_usd" ? "0.01" : "1", id: key, placeholder: key, size: 10,
      value: detail.settings?.runtime?.[key] ?? "" }));
  const budget = el("button", { id: "set-budget", disabled: running || null, onclick: () => {
    const body = {};
    limits.forEach((input) => { if (input.value !== "") body[input.id] = Number(input.value); });
    act("budget", { limits: body });
  } }, "set limits");

  const answer = el("textarea", { id: "answer", placeholder: "{}" },
    waiting.interrupts.length ? JSON.stringify(Object.fromEntries(waiting.accepts.map((k) => [k, null]))) : "");
  const resume = el("button", { id: "resume", class: "primary", disabled: running || finished || null, onclick: () => {
    let body = {};
    if (waiting.interrupts.length) {
      try { body = { answer: dropNulls(JSON.parse(answer.value || "{}")) }; } catch (error) { say(`the answer is not JSON: ${error.message}`, false); return; }
    }
    act("resume", body);
  } }, waiting.interrupts.length ? "resume with this answer" : "resume");

  const question = waiting.interrupts.length
    ? el("div", {}, el("div", { text: `It waits for an answer: ${waiting.interrupts.map((i) => i.question || JSON.stringify(i)).join("; ")}` }),
      el("div", { class: "muted", text: `the answer may set: ${waiting.accepts.join(", ") || "any JSON"}` }), answer)
    : el("div", { class: "muted", text: running ? "The run is running: pause asks it to stop at its next safe point."
      : finished ? "The run has finished." : `The run is ${summary.status}: set limits or add guidance, then resume.` });

  container.replaceChildren(el("h2", { text: "Actions" }), field("token", tokenInput),
    el("h3", { text: "Pause" }), pause, el("h3", { text: "Guidance" }), guidance, guide,
    el("h3", { text: "Spending limits" }), el("div", { class: "row" }, ...limits, budget),
    el("h3", { text: "Resume" }), question, resume, message);
}

function dropNulls(value) {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}
