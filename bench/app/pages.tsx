// The bench app's pages (server components): a small real page (a layout
// with a stylesheet, a list, a client component per item, a Suspense
// boundary), scenario A for the Flight cells, and a not-found page.
import { Suspense, type ReactNode } from "react";
import { notFound } from "../../core/index.ts";
import { Link } from "../../core/html/browser.ts";
import { Page, text } from "../pages.ts";
import { LikeButton } from "./LikeButton.tsx";
import "./app.css";

function Layout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>{title}</title>
      </head>
      <body>
        <header>
          <Link href="/">Posts</Link>
          <Link href="/a">Scenario A</Link>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}

async function Summary({ posts }: { posts: number }) {
  await Promise.resolve(); // a database query
  return <p>{posts} posts</p>;
}

const POSTS = 30;

function PostList() {
  const posts = [];
  for (let i = 0; i < POSTS; i++) {
    posts.push(
      <li key={i}>
        <h2>Post {i + 1}</h2>
        <p>{text(i, 240)}</p>
        <LikeButton initial={i % 7} />
      </li>,
    );
  }
  return (
    <Layout title="Posts">
      <h1>Posts</h1>
      <Suspense fallback={<p>…</p>}>
        <Summary posts={POSTS} />
      </Suspense>
      <ul>{posts}</ul>
    </Layout>
  );
}

function NotFound() {
  return (
    <Layout title="Not found">
      <h1>Not found</h1>
    </Layout>
  );
}

export const notFoundPage = () => <NotFound />;

/** The page at `url`: scenario A's model as it is (the bench's other HTTP cells serve the same). */
export function pageFor(url: string): ReactNode {
  switch (new URL(url).pathname) {
    case "/":
      return <PostList />;
    case "/a":
      return <Page sections={20} />;
  }
  notFound();
}
