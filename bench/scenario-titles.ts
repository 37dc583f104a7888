// The scenarios' titles, apart from their models (./scenarios.ts) so that the
// bench's host, which runs without the react-server condition, can name them.
export const scenarioTitles: Record<string, string> = {
  A: "defer-task page, 20 sections × 103 <p> (≈120 KB)",
  B: "big page, 330 sections (≈2 MB)",
  C: "server table, 1,000 rows × 6 cells",
  D: "client table, 1,000 rows as props",
  E: "nested Suspense, 10 outer + 40 inner boundaries",
  F: "React's flight-ssr-bench dashboard: 16 client components, 200 product rows as props",
  "F-async": "the same dashboard, each section and row in its own Suspense boundary (254)",
  G: "client catalog: 1,000 of the dashboard's product records as one prop (≈1.2 MB)",
};
