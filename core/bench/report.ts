// The benchmark report, as an SVG a reader takes in at a glance and as
// Markdown tables: panels (Flight, full HTML, development, HTTP…), one bar
// per page and runtime giving how many times faster contrail is than stock
// React in the same run, its value on the bar, an axis, the absolute figures
// of both beside it, and the machine and versions in the caption. Shared by
// the project's bench (bench/run.ts) and `contrail bench` (./command.ts).

/** A figure measured in several processes: their median and spread. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** One bar: a page (or scenario) on one runtime, stock and contrail measured in the same run. */
export interface ReportBar {
  page: string;
  runtime: string;
  stock: Spread;
  contrail: Spread;
}

export interface ReportPanel {
  title: string;
  /** "ms" (per render: lower is better) or "req/s" (higher is better). */
  unit: "ms" | "req/s";
  /** What the baseline is, e.g. "stock React's Flight". */
  stockLabel: string;
  bars: ReportBar[];
}

export interface Report {
  title: string;
  /** Lines under the title: the machine, the versions, how it was measured. */
  caption: string[];
  panels: ReportPanel[];
  /** Lines at the foot: conditions a reader should know (a loaded machine, a quick run). */
  notes?: string[];
}

/** How many times better contrail did than stock (above 1: contrail faster). */
export function speedup(panel: ReportPanel, bar: ReportBar): number {
  return panel.unit === "ms" ? bar.stock.median / bar.contrail.median : bar.contrail.median / bar.stock.median;
}

const RUNTIME_COLORS: Record<string, string> = { bun: "#c2410c", deno: "#0f766e", node: "#4d7c0f" };
const colorOf = (runtime: string) => RUNTIME_COLORS[runtime] ?? "#4b5563";

/** A figure with about three significant digits. */
export function formatFigure(n: number): string {
  if (n >= 1000) return Math.round(n).toLocaleString("en-US");
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n >= 1 ? n.toFixed(2) : n.toPrecision(2);
}

const formatRatio = (ratio: number) => (ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)) + "×";
const escapeXML = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const NICE_ENDS = [2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30, 50, 100];
const niceEnd = (value: number) => NICE_ENDS.find((end) => value <= end) ?? Math.ceil(value / 50) * 50;

/**
 * The axis' end: a round number at or above the largest ratio (at least 2,
 * so 1× sits inside); an outlier over twice the next largest does not set it
 * (its bar ends at the edge, its value inside it, marked ›).
 */
function axisEnd(ratios: number[]): number {
  const [largest = 0, next = 0] = [...ratios].sort((a, b) => b - a);
  return niceEnd(Math.max(2, ratios.length > 1 && largest > 2 * next ? next * 1.25 : largest));
}

function axisTicks(end: number): number[] {
  const step = end <= 6 ? 1 : end <= 12 ? 2 : end <= 30 ? 5 : end / 5;
  const ticks = [];
  for (let tick = 0; tick <= end + 1e-9; tick += step) ticks.push(tick);
  return ticks;
}

// Panel geometry (px).
const PANEL_WIDTH = 640;
const ROW = 19;
/** The width of a legend entry: its swatch and a runtime's name ("workerd" the longest). */
const LEGEND_SLOT = 72;
const LABEL_WIDTH = 118;
const BAR_WIDTH = 250;
const VALUE_ROOM = 52;
const PANEL_HEAD = 60;
/** A page label longer than this many characters gets a row of its own above its bars. */
const INLINE_LABEL = 10;
const PANEL_FOOT = 26;
const GROUP_GAP = 6;

/** The pages of a panel in order of first appearance, each with its bars. */
function groupsOf(panel: ReportPanel): [string, ReportBar[]][] {
  const groups = new Map<string, ReportBar[]>();
  for (const bar of panel.bars) groups.set(bar.page, [...(groups.get(bar.page) ?? []), bar]);
  return [...groups];
}

const ownRow = (page: string) => page.length > INLINE_LABEL;

function panelHeight(panel: ReportPanel): number {
  const groups = groupsOf(panel);
  const labelRows = groups.filter(([page]) => ownRow(page)).length;
  return PANEL_HEAD + (panel.bars.length + labelRows) * ROW + Math.max(0, groups.length - 1) * GROUP_GAP + PANEL_FOOT;
}

function renderPanel(panel: ReportPanel, x0: number, y0: number): string[] {
  const out: string[] = [];
  const end = axisEnd(panel.bars.map((bar) => speedup(panel, bar)));
  const barX = x0 + LABEL_WIDTH;
  const scale = (ratio: number) => (Math.min(ratio, end) / end) * BAR_WIDTH;
  const height = panelHeight(panel);
  const plotTop = y0 + PANEL_HEAD - 6;
  const plotBottom = y0 + height - PANEL_FOOT + 2;
  const figuresX = barX + BAR_WIDTH + VALUE_ROOM;
  const better = panel.unit === "ms" ? "stock ÷ contrail" : "contrail ÷ stock";
  out.push(
    `<rect x="${x0 - 10}" y="${y0}" width="${PANEL_WIDTH}" height="${height}" rx="6" fill="#fff" stroke="#e5e7eb"/>`,
    `<text x="${x0}" y="${y0 + 18}" font-size="14" font-weight="600">${escapeXML(panel.title)}</text>`,
    `<text x="${x0}" y="${y0 + 34}" fill="#4b5563">Baseline: ${escapeXML(panel.stockLabel)}</text>`,
    `<text x="${barX}" y="${y0 + 51}" fill="#6b7280" font-size="11">× faster (${better})</text>`,
    `<text x="${figuresX}" y="${y0 + 51}" fill="#6b7280" font-size="11">${panel.unit === "ms" ? "ms per render" : "requests/s"}: stock → contrail</text>`,
  );
  // Axis: grid lines, their values below, and 1× (no faster, no slower) marked, a tick or not.
  for (const tick of axisTicks(end)) {
    const x = barX + scale(tick);
    out.push(
      `<line x1="${x}" x2="${x}" y1="${plotTop}" y2="${plotBottom}" stroke="#e5e7eb"/>`,
      `<text x="${x}" y="${plotBottom + 13}" text-anchor="middle" fill="#6b7280">${tick}×</text>`,
    );
  }
  const parityX = barX + scale(1);
  out.push(`<line x1="${parityX}" x2="${parityX}" y1="${plotTop}" y2="${plotBottom}" stroke="#6b7280" stroke-dasharray="4 3"/>`);
  let y = y0 + PANEL_HEAD;
  for (const [page, bars] of groupsOf(panel)) {
    out.push(`<text x="${x0}" y="${y + 13}" font-weight="600">${escapeXML(page)}</text>`);
    if (ownRow(page)) y += ROW;
    for (const bar of bars) {
      const ratio = speedup(panel, bar);
      const width = Math.max(1, scale(ratio));
      const slower = ratio < 1;
      const title = `${page} on ${bar.runtime}: ${formatRatio(ratio)}; stock ${formatFigure(bar.stock.median)} (${formatFigure(bar.stock.min)}–${formatFigure(bar.stock.max)}), contrail ${formatFigure(bar.contrail.median)} (${formatFigure(bar.contrail.min)}–${formatFigure(bar.contrail.max)}) ${panel.unit}`;
      out.push(
        `<g><title>${escapeXML(title)}</title>`,
        `<text x="${barX - 8}" y="${y + 13}" text-anchor="end" fill="${colorOf(bar.runtime)}">${escapeXML(bar.runtime)}</text>`,
        `<rect x="${barX}" y="${y + 3}" width="${width.toFixed(1)}" height="${ROW - 6}" rx="2" fill="${colorOf(bar.runtime)}"${slower ? ' fill-opacity="0.45"' : ""}/>`,
        ratio > end
          ? `<text x="${barX + width - 4}" y="${y + 13}" text-anchor="end" font-weight="600" fill="#fff">${formatRatio(ratio)} ›</text>`
          : `<text x="${barX + width + 4}" y="${y + 13}" font-weight="600"${slower ? ' fill="#b91c1c"' : ""}>${formatRatio(ratio)}</text>`,
        `<text x="${figuresX}" y="${y + 13}" fill="#374151">${formatFigure(bar.stock.median)} → <tspan font-weight="600">${formatFigure(bar.contrail.median)}</tspan></text>`,
        `</g>`,
      );
      y += ROW;
    }
    y += GROUP_GAP;
  }
  return out;
}

/** The report as one SVG: the caption on top, the panels in two columns, the notes at the foot. */
export function reportSVG(report: Report): string {
  const columns = report.panels.length > 1 ? 2 : 1;
  const margin = 20;
  const headHeight = 34 + report.caption.length * 15 + 12;
  // Fill the columns in order, each panel in the shorter one.
  const columnHeights = new Array(columns).fill(headHeight);
  const placed = report.panels.map((panel) => {
    const column = columnHeights.indexOf(Math.min(...columnHeights));
    const y = columnHeights[column];
    columnHeights[column] += panelHeight(panel) + 14;
    return { panel, x: margin + 10 + column * (PANEL_WIDTH + 16), y };
  });
  const notes = report.notes ?? [];
  const width = margin * 2 + columns * PANEL_WIDTH + (columns - 1) * 16;
  const height = Math.max(...columnHeights) + notes.length * 15 + 24;
  const runtimes = [...new Set(report.panels.flatMap((panel) => panel.bars.map((bar) => bar.runtime)))];
  // Right-aligned, however many runtimes there are.
  const legend = runtimes.map((runtime, i) => {
      const x = width - margin - (runtimes.length - i) * LEGEND_SLOT;
      return `<rect x="${x}" y="16" width="12" height="12" rx="2" fill="${colorOf(runtime)}"/><text x="${x + 16}" y="26">${runtime}</text>`;
    });
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="12" fill="#111827">`,
    `<rect width="${width}" height="${height}" fill="#f9fafb"/>`,
    `<text x="${margin}" y="28" font-size="18" font-weight="700">${escapeXML(report.title)}</text>`,
    ...legend,
    ...report.caption.map((line, i) => `<text x="${margin}" y="${50 + i * 15}" fill="#4b5563">${escapeXML(line)}</text>`),
    ...placed.flatMap(({ panel, x, y }) => renderPanel(panel, x, y)),
    ...notes.map((line, i) => `<text x="${margin}" y="${height - 14 - (notes.length - 1 - i) * 15}" fill="#6b7280">${escapeXML(line)}</text>`),
    `</svg>`,
  ];
  return out.join("\n") + "\n";
}

/** The report's panels as Markdown tables (medians, with the spread between processes). */
export function reportMarkdown(report: Report): string[] {
  const lines = [`# ${report.title}`, ``, ...report.caption.map((line) => line + "  "), ``];
  const spread = (s: Spread) => `${formatFigure(s.median)} (${formatFigure(s.min)}–${formatFigure(s.max)})`;
  for (const panel of report.panels) {
    lines.push(`## ${panel.title}`, ``, `| page | runtime | stock ${panel.unit} | contrail ${panel.unit} | × faster |`, `|---|---|---:|---:|---:|`);
    for (const bar of panel.bars) {
      lines.push(`| ${bar.page} | ${bar.runtime} | ${spread(bar.stock)} | ${spread(bar.contrail)} | ${formatRatio(speedup(panel, bar))} |`);
    }
    lines.push(``);
  }
  if (report.notes?.length) lines.push(...report.notes.map((line) => line + "  "), ``);
  return lines;
}
