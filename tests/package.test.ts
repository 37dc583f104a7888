// contrail as users install it: `npm pack` (compiled .js and .d.ts behind the
// same export names), installed into a fresh project with the README's app
// copied out of README.md as written: a few pages routed by the runtime's own
// router, a layout with a stylesheet, a logo and links, a CSS module, a
// not-found page, a form whose server function redirects, a comment form
// with a bound argument, and public/. On this runtime, its own adapter and
// Hono serve it (in production from the README's `contrail build`); Chromium
// checks the first paint is styled, links navigate without a document
// request, back and forward work, both forms post with JavaScript on and off;
// then a client component and its CSS from a package in node_modules join
// the page; Tailwind CSS through PostCSS.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./support/browser.ts";
import { run, test } from "./support/harness.ts";
import { readDockerfile, runDockerBuild } from "./support/dockerfile.ts";
import { freePort } from "./support/free-port.ts";
import { startServerProcess } from "./support/server-process.ts";
import { APP_FILES, HONO_FILES, HOST_FILES, binary, collectProblems, hostCommand, hydrated, packedProject, postComment, production, readmeFiles, runtime, type UserProject } from "./support/user-project.ts";

let project: UserProject;
let browser: Browser;
process.env.PORT = "0";

test("npm pack builds a tarball with compiled JavaScript and types, every file package.json's exports name among them", () => {
  project = packedProject();
  const listing = execFileSync("tar", ["-tzf", join(project.dir, project.tarball)], { encoding: "utf8" }).split("\n");
  const exported = Object.values(JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).exports as Record<string, string | Record<string, string>>)
    .flatMap((target) => (typeof target === "string" ? [target] : Object.values(target)));
  for (const file of ["./dist/core/index.js", "./dist/core/bundle/app.js", "./dist/core/html/browser-entry.js", "./bin/contrail.js", ...exported]) {
    ok(listing.includes("package/" + file.slice(2)), file + " is missing from the tarball");
  }
});

test("the tarball and the README's app install into a fresh project", () => {
  project.install([...APP_FILES, ...HOST_FILES[runtime], ...HONO_FILES]);
});

/** A GET sent as written: fetch() would resolve `..` in the path before sending it. */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path, method: "GET" }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

/** A file the app serves itself: cached as its kind asks, and revalidated with a 304. */
async function checkCachedFile(url: string, contentType: string, cacheControl: RegExp): Promise<void> {
  const response = await fetch(url);
  strictEqual(response.status, 200, url);
  ok(response.headers.get("content-type")!.startsWith(contentType), `${url}: ${response.headers.get("content-type")}`);
  ok(cacheControl.test(response.headers.get("cache-control") ?? ""), `${url}: cache-control ${response.headers.get("cache-control")}`);
  const etag = response.headers.get("etag");
  ok(etag, `${url} has an ETag`);
  await response.arrayBuffer();
  strictEqual((await fetch(url, { headers: { "if-none-match": etag! } })).status, 304, `${url} revalidates`);
}

/** What the server answers without a browser: styles, assets, public/, statuses, the form's redirect, hostile paths. */
async function checkHTTP(base: string): Promise<void> {
  const html = await (await fetch(base + "/")).text();
  const head = html.slice(0, html.indexOf("</head>"));
  const stylesheet = /<link rel="stylesheet" href="(\/_contrail\/[^"]+\.css)"/.exec(head)?.[1];
  ok(stylesheet, "the stylesheet is linked in <head>: " + head);
  await checkCachedFile(base + stylesheet, "text/css", /immutable/);
  ok((await (await fetch(base + stylesheet)).text()).replace(/\s/g, "").includes("max-width:40rem"), "the app's CSS is in it");
  const logo = /<img src="(\/_contrail\/[^"]+\.svg)"/.exec(html)?.[1];
  ok(logo, "the logo's URL is a hashed one");
  await checkCachedFile(base + logo, "image/svg+xml", /immutable/);
  await checkCachedFile(base + "/robots.txt", "text/plain", /max-age=0/);
  ok((await fetch(base + "/robots.txt")).headers.get("last-modified"), "public/ files carry Last-Modified");

  const missing = await fetch(base + "/posts/999");
  strictEqual(missing.status, 404);
  const missingPage = await missing.text();
  ok(missingPage.includes("Not found") && missingPage.includes("<nav>"), "the not-found page, in the layout");
  const flight = await fetch(base + "/posts/1", { headers: { rsc: "1" } });
  strictEqual(flight.headers.get("content-type"), "text/x-component; charset=utf-8");
  await flight.arrayBuffer();

  // The form as a browser without JavaScript posts it: React's hidden field names the server function.
  const newPage = await (await fetch(base + "/new")).text();
  const actionField = /name="(\$ACTION_ID_[^"]+#createPost)"/.exec(newPage)?.[1];
  ok(actionField, "the form names its server function");
  const form = new FormData();
  form.append(actionField!, "");
  form.append("title", "Posted without JavaScript");
  const posted = await fetch(base + "/new", { method: "POST", body: form, redirect: "manual" });
  strictEqual(posted.status, 303);
  const location = posted.headers.get("location")!;
  ok(/^\/posts\/\d+$/.test(location), "redirected to the new post: " + location);
  ok((await (await fetch(base + location)).text()).includes("Posted without JavaScript"));

  // The request context: signing in without JavaScript sets the cookie, and the answer already shows it.
  const signInField = /name="(\$ACTION_ID_[^"]+#signIn)"/.exec(newPage)?.[1];
  ok(signInField, "the layout's sign-in form names its server function");
  const signIn = new FormData();
  signIn.append(signInField!, "");
  signIn.append("name", "grace");
  const signedIn = await fetch(base + "/", { method: "POST", body: signIn });
  deepStrictEqual(signedIn.headers.getSetCookie(), ["user=grace; Path=/; Max-Age=2592000; HttpOnly; SameSite=lax"]);
  ok((await signedIn.text()).includes("Signed in as <!-- -->grace"), "the page rendered after signIn reads its cookie");
  const cookie = { cookie: "user=grace" };
  ok((await (await fetch(base + "/posts/1", { headers: cookie })).text()).includes("Signed in as <!-- -->grace"), "every page reads the cookie");
  const filtered = await (await fetch(base + "/?q=STYLES")).text();
  ok(filtered.includes("Styles and static files") && !filtered.includes("Hello, contrail"), "?q= filters the list");

  for (const path of ["/../package.json", "/public/../package.json", "/%2e%2e/package.json", "/..%2fpackage.json", "/%2e%2e%2fpackage.json", "/_contrail/../../package.json", "/_contrail/0123456789abcdef.js", "/app/", "/robots.txt/", "/no-such-file.txt"]) {
    const { status, body } = await rawGet(base, path);
    ok(status === 404 || status === 403 || status === 400, `${path} answers ${status}`);
    ok(!body.includes('"dependencies"'), `${path} never serves a file outside public/`);
  }
}

/** In Chromium: styled before hydration, links navigate on the client, back and forward, the forms (a redirect, a bound argument). */
async function checkBrowser(base: string, extra?: (page: Page) => Promise<void>): Promise<void> {
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const staticPage = await noScript.newPage();
  await staticPage.goto(base + "/");
  strictEqual(await staticPage.evaluate(() => getComputedStyle(document.body).backgroundColor), "rgb(248, 250, 252)", "the first paint is styled");
  // The comment form without JavaScript: React's hidden fields carry the bound post id, signed.
  await staticPage.goto(base + "/posts/1");
  await postComment(staticPage);
  await noScript.close();

  const page = await browser.newPage();
  const problems = collectProblems(page);
  let documents = 0;
  page.on("request", (request) => void (request.resourceType() === "document" && documents++));
  await page.goto(base + "/");
  // Links navigate once React has hydrated them.
  await hydrated(page);
  await page.evaluate(() => ((window as any).sameDocument = true));
  await page.click('#posts a[href="/posts/1"]');
  await page.waitForSelector('#title:has-text("Hello, contrail")');
  strictEqual(new URL(page.url()).pathname, "/posts/1");
  await page.waitForSelector("#reading-time");
  await page.click("#like");
  await page.waitForFunction(() => document.querySelector("#like")!.textContent!.includes("1"));
  strictEqual(await page.evaluate(() => getComputedStyle(document.querySelector("#like")!).color), "rgb(225, 29, 72)", "the CSS module styles the button");
  await postComment(page);
  await page.goBack();
  await page.waitForSelector("#posts");
  strictEqual(new URL(page.url()).pathname, "/");
  await page.goForward();
  await page.waitForSelector("#title");
  // A post published from the hydrated page: the server function redirects, the browser navigates.
  await page.click('nav a[href="/new"]');
  await page.waitForSelector("#publish");
  await page.fill("input[name=title]", "Posted from the browser");
  await page.click("#publish");
  await page.waitForSelector('#title:has-text("Posted from the browser")');
  ok(/^\/posts\/\d+$/.test(new URL(page.url()).pathname), "the URL is the new post's: " + page.url());
  // Signing in from the hydrated page: the server function sets the cookie, the layout shows it at once and after navigating.
  await page.fill("input[name=name]", "ada");
  await page.click("#sign-in");
  await page.waitForSelector('#user:has-text("Signed in as ada")');
  await page.click('nav a[href="/"]');
  await page.waitForSelector("#posts");
  strictEqual(await page.textContent("#user"), "Signed in as ada");
  await page.click("#sign-out");
  await page.waitForSelector("#sign-in");
  await extra?.(page);
  strictEqual(documents, 1, "one document request: every later page came by client navigation");
  ok(await page.evaluate(() => (window as any).sameDocument), "the same document all along");
  strictEqual(problems.length, 0, problems.join("\n"));
  await page.close();
}

/**
 * In development, the app's own edits show in the open page with the like
 * count kept (hot updates, from the tarball): a server component, the client
 * component, its CSS module. The files are then put back as they were.
 */
async function checkHotUpdates(page: Page): Promise<void> {
  const edits: [file: string, from: string, to: string][] = [
    ["app/pages.tsx", "min read</p>", "min to read</p>"],
    ["app/LikeButton.tsx", "♥ {likes}", "♥ {likes} likes"],
    ["app/LikeButton.module.css", "color: #e11d48;", "color: #2563eb;"],
  ];
  const originals = new Map(edits.map(([file]) => [file, readFileSync(join(project.dir, file), "utf8")]));
  const edit = (file: string, from: string, to: string) => project.write(file, replaceOnce(readFileSync(join(project.dir, file), "utf8"), from, to));
  try {
    await page.click('#posts a[href="/posts/1"]');
    await page.waitForSelector("#reading-time");
    await page.click("#like");
    await page.waitForFunction(() => document.querySelector("#like")!.textContent!.includes("1"));
    edit(...edits[0]);
    await page.waitForFunction(() => document.querySelector("#reading-time")?.textContent?.includes("min to read"));
    edit(...edits[1]);
    await page.waitForFunction(() => document.querySelector("#like")?.textContent === "♥ 1 likes");
    edit(...edits[2]);
    await page.waitForFunction(() => getComputedStyle(document.querySelector("#like")!).color === "rgb(37, 99, 235)");
    strictEqual(await page.textContent("#like"), "♥ 1 likes", "the like count kept through every edit");
  } finally {
    for (const [file, source] of originals) project.write(file, source);
  }
  await page.waitForFunction(() => document.querySelector("#like")?.textContent === "♥ 1", undefined, { timeout: 20000 }).catch(async (error) => {
    throw new Error(`after the files were put back: ${await page.textContent("#like")} ${await page.textContent("#reading-time")} ${page.url()}`, { cause: error });
  });
}

async function checkApp(host: string, extra?: (page: Page) => Promise<void>): Promise<void> {
  // In production the host starts from its build (in development it bundles at start).
  if (production) project.buildFor(host);
  const server = await startServerProcess(hostCommand(host), project.dir);
  try {
    await checkHTTP(server.base);
    await checkBrowser(server.base, extra);
  } finally {
    server.stop();
  }
}

test(`the README's ${runtime} app: styles, assets, public/, statuses, navigation`, async () => {
  browser = await launchBrowser();
  await checkApp(`serve.${runtime}.ts`, production ? undefined : checkHotUpdates);
});

test(`the README's Hono app on ${runtime}: the same`, () => checkApp("serve.hono.ts", production ? undefined : checkHotUpdates));

// No container engine runs here: the Dockerfile's build runs in a folder standing for the image.
test(`examples/Dockerfile.${runtime}: built in a clean folder from the tarball, it serves the app with the key from the environment and drains on its STOPSIGNAL`, async () => {
  if (!production) return console.log("       (development: an image holds a production build: skipped)");
  const dockerfile = readDockerfile(new URL(`../examples/Dockerfile.${runtime}`, import.meta.url).pathname);
  const context = mkdtempSync(join(tmpdir(), "contrail-docker-context-"));
  const image = mkdtempSync(join(tmpdir(), "contrail-docker-image-"));
  try {
    // The app as its repository holds it, with this runtime's lockfile; .dockerignore leaves out node_modules and dist.
    const ignored = /\/(node_modules|dist|posts\.json)$/;
    cpSync(project.dir, context, { recursive: true, filter: (source) => !ignored.test(source) });
    if (runtime === "bun") execFileSync(binary("bun"), ["install", "--lockfile-only"], { cwd: context, stdio: "ignore" });
    if (runtime === "deno") execFileSync(binary("deno"), ["install"], { cwd: context, stdio: "ignore" });
    rmSync(join(context, "node_modules"), { recursive: true, force: true });
    // The tarball comes with package.json, as a registry would give the package. Deno 2.9 installs a
    // package tarball as a link to the file: there npm installs it (a registry's contrail installs as written).
    const bin = join(new URL("..", import.meta.url).pathname, "node_modules/.bin");
    const instead = { "deno install --frozen": "npm install --prefer-offline --no-audit --no-fund --silent" };
    const built = runDockerBuild(dockerfile, context, image, bin, [project.tarball], instead);
    ok(/new server functions key[\s\S]*CONTRAIL_SERVER_FUNCTIONS_KEY[\s\S]*openssl rand -base64 32/.test(built), "contrail build says a new key breaks open forms, and how to keep one: " + built);
    ok(!existsSync(join(image, `dist/${runtime}/server-functions.key`)), "no key in the image");

    const env = { ...dockerfile.env, PATH: `${bin}:${process.env.PATH}`, PORT: String(await freePort()) };
    const keyless = spawnSync(dockerfile.cmd[0], dockerfile.cmd.slice(1), { cwd: image, env: { ...process.env, ...env, CONTRAIL_SERVER_FUNCTIONS_KEY: "" }, encoding: "utf8", timeout: 60_000 });
    ok(keyless.status !== 0 && keyless.stderr.includes("CONTRAIL_SERVER_FUNCTIONS_KEY"), "without a key it stops at start, naming the variable: " + keyless.stderr);
    const server = await startServerProcess(dockerfile.cmd, image, { env: { ...env, CONTRAIL_SERVER_FUNCTIONS_KEY: "the key from the secret store" } });
    try {
      const health = spawnSync(dockerfile.healthcheck[0], dockerfile.healthcheck.slice(1), { cwd: image, env: { ...process.env, ...env }, timeout: 30_000 });
      strictEqual(health.status, 0, "HEALTHCHECK passes");
      await checkHTTP(server.base);
      const exit = new Promise((resolve) => server.child.once("exit", resolve));
      process.kill(server.child.pid!, dockerfile.all("STOPSIGNAL")[0] as NodeJS.Signals);
      strictEqual(await exit, 0, "drains and exits 0 on its STOPSIGNAL");
    } finally {
      server.stop();
    }
  } finally {
    rmSync(context, { recursive: true, force: true });
    rmSync(image, { recursive: true, force: true });
  }
});

test('a "use client" component and its stylesheet from a package in node_modules', async () => {
  // A published component library: plain JavaScript, its own "use client", its own CSS.
  project.write("node_modules/toggle-kit/package.json", JSON.stringify({ name: "toggle-kit", version: "1.0.0", type: "module", exports: { ".": "./index.js", "./styles.css": "./styles.css" } }));
  project.write("node_modules/toggle-kit/styles.css", ".toggle-kit { color: rgb(22, 163, 74); }\n");
  project.write("node_modules/toggle-kit/index.js", [
    '"use client";',
    'import { createElement, useState } from "react";',
    'import "toggle-kit/styles.css";',
    "export function Toggle() {",
    "  const [on, setOn] = useState(false);",
    '  return createElement("button", { type: "button", id: "toggle", className: "toggle-kit", onClick: () => setOn(!on) }, on ? "on" : "off");',
    "}",
  ].join("\n"));
  const layout = readmeFiles().get("app/Layout.tsx")!;
  project.write("app/Layout.tsx", 'import { Toggle } from "toggle-kit";\n' + replaceOnce(layout, "</nav>", "</nav>\n          <Toggle />"));
  await checkApp(`serve.${runtime}.ts`, async (page) => {
    await page.click("#toggle");
    await page.waitForFunction(() => document.querySelector("#toggle")!.textContent === "on");
    strictEqual(await page.evaluate(() => getComputedStyle(document.querySelector("#toggle")!).color), "rgb(22, 163, 74)", "the package's CSS applies");
  });
});

// A real component library, as users write pages with it: Radix Themes from
// npm in server components (its "use client" parts become client modules),
// the post list as its cards. Long class lists, SVG and multi-byte text cross
// react-dom/server's chunks wherever the list's length puts them: at every
// size the page must hydrate (the like button counts) and navigate.
const RADIX_LAYOUT = (layout: string) =>
  'import "@radix-ui/themes/styles.css";\nimport { Theme } from "@radix-ui/themes";\n' +
  replaceOnce(layout, "<main>{children}</main>", '<Theme accentColor="indigo" radius="large"><main>{children}</main></Theme>');
const RADIX_POST_LIST = `
import { Badge, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { Link } from "contrail/browser";
import { Layout } from "./Layout.tsx";
import { LikeButton } from "./LikeButton.tsx";
import { listPosts } from "./posts.ts";

export function RadixPostList() {
  const posts = listPosts();
  return (
    <Layout title="Posts">
      <Heading as="h1">Posts</Heading>
      <LikeButton />
      <Flex id="posts" direction="column" gap="3">
        {posts.map((post) => (
          <Card key={post.id} size="2" variant={post.id % 2 ? "surface" : "classic"}>
            <Flex gap="3" align="center" justify="between">
              <Link href={\`/posts/\${post.id}\`}>{post.title}</Link>
              <Badge color={post.id % 3 ? "green" : "orange"} radius="full">{post.comments.length} comments</Badge>
            </Flex>
            <Text as="p" size="2" color="gray">{post.body}</Text>
          </Card>
        ))}
      </Flex>
    </Layout>
  );
}
`;
/** `text` with `from` replaced by `to`, which must be there: a README change shows here, not as a puzzling test. */
function replaceOnce(text: string, from: string, to: string): string {
  ok(text.includes(from), `the README's code no longer holds ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

/** Posts for a list page of about `bytes` bytes of HTML: multi-byte text, numbered so each card differs. */
function postsOfSize(bytes: number): unknown[] {
  const count = Math.max(1, Math.round(bytes / 900));
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    title: i === 0 ? "Hello, contrail" : `Post ${i + 1}: Ünïcödé, 中文 & emoji 😀`,
    body: `Body ${i + 1} — "quoted" <text> & more; `.repeat(1 + (i % 7)),
    comments: [],
  }));
}

test("the README's app with Radix Themes from npm hydrates at every size, on its adapter and Hono", async () => {
  const version = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).devDependencies["@radix-ui/themes"];
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--silent", `@radix-ui/themes@${version}`], { cwd: project.dir, stdio: ["ignore", "ignore", "inherit"] });
  const readme = readmeFiles();
  project.write("app/Layout.tsx", RADIX_LAYOUT(readme.get("app/Layout.tsx")!));
  project.write("app/radix.tsx", RADIX_POST_LIST);
  // The home page is the Radix list: every host routes "/" to PostList.
  project.write("app/pages.tsx", replaceOnce(readme.get("app/pages.tsx")!, "export async function PostList() {", 'export { RadixPostList as PostList } from "./radix.tsx";\nasync function ReadmePostList() {'));
  for (const host of [`serve.${runtime}.ts`, "serve.hono.ts"]) {
    if (production) project.buildFor(host);
    const server = await startServerProcess(hostCommand(host), project.dir);
    try {
      for (const bytes of [1_000, 5_000, 20_000, 100_000, 500_000, 2_000_000]) {
        writeFileSync(join(project.dir, "posts.json"), JSON.stringify(postsOfSize(bytes)));
        const page = await browser.newPage();
        const problems = collectProblems(page);
        await page.goto(server.base + "/");
        await hydrated(page);
        await page.click("#like");
        await page.waitForFunction(() => document.querySelector("#like")!.textContent!.includes("1"));
        ok((await page.evaluate(() => document.querySelectorAll("#posts .rt-Card").length)) === postsOfSize(bytes).length, `${host}, ${bytes} B: every card`);
        await page.click('#posts a[href="/posts/1"]');
        await page.waitForSelector('#title:has-text("Hello, contrail")');
        strictEqual(problems.length, 0, `${host}, ${bytes} B: ${problems.join("\n")}`);
        await page.close();
      }
    } finally {
      server.stop();
      rmSync(join(project.dir, "posts.json"), { force: true });
    }
  }
});

// Tailwind CSS v4 from npm, set up as docs/pages.md says (its install
// command, postcss.config.mjs, `@import "tailwindcss"`, a CSS module with
// `@apply`): the page is styled by utilities of a server component and the
// module, the stylesheet holds no utility the app does not use, and in
// development a class added to a component shows in the open page.
test("the README's app with Tailwind CSS, set up as docs/pages.md says", async () => {
  const docs = readFileSync(new URL("../docs/pages.md", import.meta.url), "utf8");
  const install = "npm install tailwindcss @tailwindcss/postcss postcss";
  ok(docs.includes("```sh\n" + install + "\n```"), "docs/pages.md shows " + install);
  const versions = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).devDependencies;
  const packages = install.split(" ").slice(2).map((name) => `${name}@${versions[name]}`);
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--silent", ...packages], { cwd: project.dir, stdio: ["ignore", "ignore", "inherit"] });
  const readme = readmeFiles();
  project.write("postcss.config.mjs", readme.get("postcss.config.mjs")!);
  project.write("app/Card.module.css", readme.get("app/Card.module.css")!);
  project.write("app/app.css", '@import "tailwindcss";\n' + readme.get("app/app.css")!);
  // As the docs advise: the build folder is left out of Tailwind's scan.
  project.write(".gitignore", "node_modules/\ndist/\n");
  const layout = 'import card from "./Card.module.css";\n' + replaceOnce(replaceOnce(readme.get("app/Layout.tsx")!, "<nav>", '<nav className="font-bold text-[rgb(5,150,105)]">'), "<main>", "<main className={card.card}>");
  project.write("app/Layout.tsx", layout);
  project.write("app/pages.tsx", readme.get("app/pages.tsx")!);
  if (production) project.buildFor(`serve.${runtime}.ts`);
  const server = await startServerProcess(hostCommand(`serve.${runtime}.ts`), project.dir);
  try {
    const html = await (await fetch(server.base + "/")).text();
    const stylesheet = await (await fetch(server.base + /<link rel="stylesheet" href="(\/_contrail\/[^"]+\.css)"/.exec(html)![1])).text();
    const compact = stylesheet.replace(/\s/g, "");
    ok(compact.includes(".font-bold{"), "a utility the app uses");
    const stray = /\.(?:table|transform|inline)\{/.exec(compact)?.[0];
    ok(stray === undefined, `no utility the app does not use: ${stray}`);
    const page = await browser.newPage();
    const problems = collectProblems(page);
    await page.goto(server.base + "/");
    const style = (selector: string, property: string) => page.locator(selector).evaluate((node, property) => getComputedStyle(node).getPropertyValue(property), property);
    strictEqual(await style("nav", "color"), "rgb(5, 150, 105)", "a server component's utility");
    strictEqual(await style("main", "border-top-left-radius"), "8px", "the CSS module's @apply");
    strictEqual(await style("body", "background-color"), "rgb(248, 250, 252)", "the app's own CSS after Tailwind's");
    if (!production) {
      await hydrated(page);
      project.write("app/Layout.tsx", replaceOnce(layout, "font-bold", "font-bold bg-[rgb(1,2,3)]"));
      await page.waitForFunction(() => getComputedStyle(document.querySelector("nav")!).backgroundColor === "rgb(1, 2, 3)");
    }
    strictEqual(problems.length, 0, problems.join("\n"));
    await page.close();
  } finally {
    server.stop();
  }
});

test("cleanup", async () => {
  await browser?.close();
  project?.remove();
});

await run("installed package");
