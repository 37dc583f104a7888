// The demo's server entry (server graph): its pages are server components,
// routed by Hono, rendered by contrail's Hono adapter as HTML (payload
// inlined, hydrated in the browser) or Flight when the request asks (a
// client navigation does). Stylesheets, the logo and public/ are served by
// contrail; links navigate on the client.
import { readFile } from "node:fs/promises";
import { Suspense, type ReactNode } from "react";
import { Hono } from "hono";
import { Sections } from "../../bench/pages.ts";
import { rsc } from "../../adapters/hono/index.ts";
import { notFound, redirect } from "../../core/index.ts";
import { Link } from "../../core/html/browser.ts";
import { Counter } from "./Counter.ts";
import { EntryCounter } from "./EntryCounter.ts";
import { ErrorBoundary } from "./ErrorBoundary.ts";
import { GuestbookForm } from "./GuestbookForm.ts";
import { NavLink } from "./NavLink.ts";
import { findEntry, listEntries } from "./guestbook.ts";
import styles from "./Card.module.css";
import logo from "./logo.svg";
import "./app.css";

function Layout({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <link rel="icon" href="/favicon.svg" />
      </head>
      <body>
        <header className="site-header">
          <Link href="/" className="brand">
            <img src={logo} alt="" width={32} height={32} />
            contrail
          </Link>
          <nav>
            <NavLink href="/">Dashboard</NavLink>
            <NavLink href="/page-a">Scenario A</NavLink>
            <NavLink href="/bench">Benchmarks</NavLink>
            <NavLink href="/errors">Errors</NavLink>
            <NavLink href="/guestbook">Guestbook</NavLink>
          </nav>
        </header>
        <div className="content">{children}</div>
        <footer className="site-footer">Rendered by contrail: server components on Bun, Deno and Node.</footer>
      </body>
    </html>
  );
}

async function Feed() {
  await new Promise((resolve) => setTimeout(resolve, 300));
  // In development this also appears in the browser's console, badged "Server".
  console.log("Feed rendered on the server");
  const items = ["Bun served this row", "Deno served this one", "Node 24 too", "Rendered by contrail"];
  return <ul id="feed">{items.map((item) => <li key={item}>{item}</li>)}</ul>;
}

function Dashboard() {
  return (
    <Layout title="contrail dashboard">
      <h1>Dashboard</h1>
      <div className={styles.grid}>
        <section className={styles.card}>
          <h2>Counter</h2>
          <p>A client component, rendered on the server and hydrated in the browser:</p>
          <Counter initial={0} />
        </section>
        <section className={styles.card}>
          <h2>Feed</h2>
          <Suspense fallback={<p id="feed-loading">Loading the feed…</p>}>
            <Feed />
          </Suspense>
        </section>
        <section className={styles.card}>
          <h2>Guestbook</h2>
          <p>Server functions, with JavaScript on or off. <Link href="/guestbook">Sign it</Link>.</p>
        </section>
      </div>
    </Layout>
  );
}

async function BenchResults() {
  const svg = await readFile(new URL("../../bench/results/latest.svg", import.meta.url), "utf8").catch(() => null);
  return svg ? <div className="bench-results" dangerouslySetInnerHTML={{ __html: svg }} /> : <p>No results yet: run npm run bench.</p>;
}

async function Forecast(): Promise<never> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  throw new Error("The forecast service is down");
}

function Errors() {
  return (
    <Layout title="contrail errors">
      <h1>Errors</h1>
      <p>A server component fails; the client error boundary around it catches the error once the page hydrates:</p>
      <ErrorBoundary>
        <Suspense fallback={<p id="forecast-loading">Loading the forecast…</p>}>
          <Forecast />
        </Suspense>
      </ErrorBoundary>
    </Layout>
  );
}

/** Rendered again after each server function call, so a new entry shows at once. */
function Entries() {
  return (
    <ul id="entries">
      {listEntries().map((entry) => (
        <li key={entry.id}>
          <Link href={`/guestbook/${entry.id}`}>{entry.name}</Link>: {entry.message}
        </li>
      ))}
    </ul>
  );
}

function Guestbook() {
  return (
    <Layout title="contrail guestbook">
      <h1>Guestbook</h1>
      <p>Signed through a server function: with JavaScript off, the form posts the page; once hydrated, React calls the function.</p>
      <GuestbookForm />
      <EntryCounter />
      <h2>Entries</h2>
      <Entries />
    </Layout>
  );
}

function GuestbookEntry({ id }: { id: string }) {
  const entry = findEntry(Number(id));
  if (!entry) notFound();
  return (
    <Layout title={`${entry.name} signed the guestbook`}>
      <h1 id="entry-name">{entry.name}</h1>
      <blockquote>{entry.message}</blockquote>
      <p><Link href="/guestbook">All entries</Link></p>
    </Layout>
  );
}

/** The newest entry's page, or the guestbook when it is empty. */
function LatestEntry(): never {
  const latest = listEntries()[0];
  redirect(latest ? `/guestbook/${latest.id}` : "/guestbook");
}

function NotFound() {
  return (
    <Layout title="Not found">
      <h1>Not found</h1>
      <p>No page here. <Link href="/">Back to the dashboard</Link>.</p>
    </Layout>
  );
}

/** Logs a server component's error under a digest; the browser sees only the digest. */
function onError(error: unknown): string {
  const digest = crypto.randomUUID().slice(0, 8);
  console.error(`digest ${digest}:`, error);
  return digest;
}

const app = new Hono();
app.use(rsc({ onError, notFound: () => <NotFound /> }));
// POST too: a page's POST calls a server function, then the page is rendered.
const page = (path: string, render: (params: Record<string, string>) => ReactNode) =>
  app.on(["GET", "POST"], path, (c) => c.rsc(render(c.req.param())));
page("/", () => <Dashboard />);
page("/page-a", () => <Layout title="scenario A"><Sections sections={20} /></Layout>);
page("/bench", () => <Layout title="contrail benchmarks"><h1>Benchmarks</h1><BenchResults /></Layout>);
page("/errors", () => <Errors />);
page("/guestbook", () => <Guestbook />);
page("/guestbook/latest", () => <LatestEntry />);
page("/guestbook/:id", ({ id }) => <GuestbookEntry id={id} />);
app.notFound((c) => c.rsc(<NotFound />, { status: 404 }));

export default app;
