// `contrail bench` takes a page's model from an app as the bench runs it:
// bundled and started by loadApp, its handlers in the server graph, the
// bench in the host process (two copies of core/serve/app-context.ts, one
// slot). Each handler shape the bench asks (a fetch handler, a Node request
// listener, Bun's routes) reports the model it renders to the host.
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { pageModel, pageRequester } from "../core/bench/page-model.ts";
import { loadApp } from "../core/bundle/app.ts";
import { pageObserver } from "../core/serve/app-context.ts";
import { run, test } from "./support/harness.ts";

const app = new URL("./fixtures/app/", import.meta.url).pathname;
const server = await loadApp(join(app, "server.tsx"), { root: app });

const shapes: [string, Record<string, any>][] = [
  ["its fetch handler", { default: server.fetch }],
  ["its Node request listener", { default: server.listener }],
];
if ((globalThis as any).Bun) shapes.push(["Bun's routes", { routes: { "/forms": server.fetch, "/": server.fetch } }]);

for (const [shape, exports] of shapes) {
  test(`the models of a loadApp'd app's pages, from ${shape}`, async () => {
    const requester = await pageRequester(exports);
    try {
      // Elements of the server graph's React, its components as the app bundled them.
      const home = (await pageModel(requester.request, "/")) as any;
      equal(home.$$typeof, Symbol.for("react.transitional.element"));
      equal(home.type.name, "Page");
      const forms = (await pageModel(requester.request, "/forms")) as any;
      equal(forms.type.name, "Forms");
      equal(pageObserver(), undefined);
    } finally {
      requester.close();
    }
  });
}

test("a page of the app whose root fails is an error that says its status", async () => {
  const requester = await pageRequester({ default: server.fetch });
  const failure = await pageModel(requester.request, "/broken").then(() => undefined, (error: Error) => error.message);
  ok(failure?.includes("500") && failure.includes("bench pages that render"), String(failure));
});

await run("bench-report.app");
