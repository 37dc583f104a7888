// The matrix's figures as the shared report (core/bench/report.ts): panels
// for Flight and the full HTML response in production and under React's
// development builds, HTTP load, and frameworks' apps built with
// contrail/compat; contrail against stock React.
import type { Report, ReportBar, ReportPanel, Spread } from "../core/bench/report.ts";
import type { HttpResult } from "./http.ts";
import { frameworkPairs, frameworksConditions, median, type FrameworkCell, type FrameworksBench } from "./frameworks.ts";

export interface MatrixCell {
  runtime: string;
  scenario: string;
  stage: string;
  impl: string;
  ms: number;
  min: number;
  max: number;
}

const spreadOf = (cell: MatrixCell): Spread => ({ median: cell.ms, min: cell.min, max: cell.max });

/** One bar per scenario and runtime where both stock and contrail have a cell of `stage`. */
function stageBars(cells: MatrixCell[], stage: string, scenarios: string[], runtimes: string[]): ReportBar[] {
  const bars: ReportBar[] = [];
  for (const scenario of scenarios) {
    for (const runtime of runtimes) {
      const find = (impl: string) => cells.find((c) => c.runtime === runtime && c.scenario === scenario && c.stage === stage && c.impl === impl);
      const [stock, contrail] = [find("stock"), find("contrail")];
      if (stock && contrail) bars.push({ page: scenario, runtime, stock: spreadOf(stock), contrail: spreadOf(contrail) });
    }
  }
  return bars;
}

/** HTTP cells (one run each): requests/s of contrail and of stock on the same server. */
function httpBars(http: HttpResult[], runtimes: string[]): ReportBar[] {
  const bars: ReportBar[] = [];
  const kinds = [...new Set(http.map((r) => `${r.server === "hono" ? "Hono" : "native"}, ${r.connections} conn.`))];
  for (const kind of kinds) {
    for (const runtime of runtimes) {
      const find = (impl: string) => http.find((r) => r.runtime === runtime && r.impl === impl && `${r.server === "hono" ? "Hono" : "native"}, ${r.connections} conn.` === kind);
      const [stock, contrail] = [find("stock"), find("contrail")];
      const once = (r: HttpResult): Spread => ({ median: r.requestsPerSecond, min: r.requestsPerSecond, max: r.requestsPerSecond });
      if (stock && contrail) bars.push({ page: kind, runtime, stock: once(stock), contrail: once(contrail) });
    }
  }
  return bars;
}

/** Each framework's pages per runtime: requests/s of the compat build and of the stock one, over the rounds. */
function frameworkBars(bench: FrameworksBench): ReportBar[] {
  const spread = (cell: FrameworkCell): Spread => ({ median: median(cell.requestsPerSecond), min: Math.min(...cell.requestsPerSecond), max: Math.max(...cell.requestsPerSecond) });
  return frameworkPairs(bench).map(({ stock, compat }) => ({ page: `${stock.framework}: ${stock.page}`, runtime: stock.runtime, stock: spread(stock), contrail: spread(compat) }));
}

/** The foot's lines on the frameworks panel: how it was measured, and what was not, why. */
function frameworkNotes(bench: FrameworksBench): string[] {
  const measured = frameworkPairs(bench).length ? [`Frameworks: each app built stock vs aliased to contrail/compat (docs/frameworks/); ${frameworksConditions(bench)}.`] : [];
  return [...measured, ...bench.skipped.map((reason) => `Not measured: ${reason}.`)];
}

export function matrixReport(
  cells: MatrixCell[],
  http: HttpResult[],
  options: { scenarios: string[]; runtimes: string[]; caption: string[]; notes: string[]; frameworks?: FrameworksBench },
): Report {
  const { scenarios, runtimes } = options;
  const panels: ReportPanel[] = [
    { title: "Flight, production", unit: "ms", stockLabel: "React's Flight server", bars: stageBars(cells, "flight", scenarios, runtimes) },
    {
      title: "Full HTML response, production",
      unit: "ms",
      stockLabel: "React's pipeline (Flight, client, react-dom/server)",
      bars: stageBars(cells, "html response", scenarios, runtimes),
    },
    { title: "Flight, development builds", unit: "ms", stockLabel: "React's Flight server (development)", bars: stageBars(cells, "flight-dev", scenarios, runtimes) },
    {
      title: "Full HTML response, development builds",
      unit: "ms",
      stockLabel: "React's pipeline (development)",
      bars: stageBars(cells, "html-dev", scenarios, runtimes),
    },
    { title: "HTTP, scenario A's Flight (autocannon)", unit: "req/s", stockLabel: "React's Flight server on the same server", bars: httpBars(http, runtimes) },
  ];
  const notes = [...options.notes];
  if (options.frameworks) {
    panels.push({
      title: "Frameworks: contrail/compat ÷ stock",
      unit: "req/s",
      stockLabel: "the same app built without the aliases (React's Flight server)",
      bars: frameworkBars(options.frameworks),
    });
    notes.push(...frameworkNotes(options.frameworks));
  }
  return { title: "contrail vs stock React, same run", caption: options.caption, panels: panels.filter((panel) => panel.bars.length > 0), notes };
}
