// An SVG bar chart of contrail's Flight speedups (vs stock and vs stock-65100), per runtime.
interface Ratio {
  runtime: string;
  scenario: string;
  versus: string;
  speedup: number;
}

export function renderChart(ratios: Ratio[], runtimes: string[], scenarios: string[]): string {
  const barWidth = 14;
  const groupWidth = scenarios.length * (barWidth * 2 + 10) + 30;
  const width = runtimes.length * groupWidth + 60;
  const height = 300;
  const top = Math.max(2, ...ratios.map((r) => r.speedup));
  const y = (value: number) => height - 40 - (value / top) * (height - 80);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<text x="10" y="16" font-size="13">contrail Flight speedup (× faster; dark: vs stock, light: vs stock-65100)</text>`,
    `<line x1="40" x2="${width - 10}" y1="${y(1)}" y2="${y(1)}" stroke="#999" stroke-dasharray="4"/>`,
    `<text x="8" y="${y(1) + 4}">1x</text>`,
  ];
  runtimes.forEach((runtime, g) => {
    const x0 = 50 + g * groupWidth;
    parts.push(`<text x="${x0}" y="${height - 8}" font-size="12">${runtime}</text>`);
    scenarios.forEach((scenario, s) => {
      const x = x0 + s * (barWidth * 2 + 10);
      ["stock", "patched"].forEach((versus, v) => {
        const ratio = ratios.find((r) => r.runtime === runtime && r.scenario === scenario && r.versus === versus);
        if (!ratio) return;
        const barX = x + v * barWidth;
        parts.push(
          `<rect x="${barX}" y="${y(ratio.speedup)}" width="${barWidth - 1}" height="${y(0) - y(ratio.speedup)}" fill="${v ? "#8ab" : "#246"}"><title>${runtime} ${scenario} vs ${versus}: ${ratio.speedup.toFixed(2)}x</title></rect>`,
        );
      });
      parts.push(`<text x="${x}" y="${height - 24}">${scenario}</text>`);
    });
  });
  parts.push(`</svg>`);
  return parts.join("\n");
}
