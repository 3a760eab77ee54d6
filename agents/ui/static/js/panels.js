// Which panel the run page shows for an agent's run (the data comes from /api/runs/ID/agent).

import { renderEvokernel } from "./evokernel.js";
import { renderKernels } from "./kernels.js";
import { renderPathwise } from "./pathwise.js";
import { renderRpg } from "./rpg.js";
import { renderSplittester } from "./splittester.js";

const PANELS = { evokernel: renderEvokernel, pathwise: renderPathwise, rpg: renderRpg, splittester: renderSplittester,
  "bench-kernels": renderKernels };

export function renderPanel(container, view) {
  const render = PANELS[view.kind];
  if (render) render(container, view);
}
