// Pages made of server components that need nothing of the server build:
// the plain react-dom/server anchor renders them without Flight.
import { createElement as h } from "react";

export const WORDS = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua".split(" ");

/** Deterministic text of about `length` characters. */
export function text(seed: number, length: number): string {
  let out = "";
  let state = seed * 2654435761 >>> 0;
  while (out.length < length) {
    state = (state * 1103515245 + 12345) >>> 0;
    out += (out ? " " : "") + WORDS[state % WORDS.length];
  }
  return out;
}

function Paragraph({ children }: { children?: string }) {
  return h("p", null, children);
}

function Section({ index }: { index: number }) {
  const paragraphs = [];
  for (let i = 0; i < 103; i++) {
    paragraphs.push(h(Paragraph, { key: i }, i < 3 ? text(index * 103 + i, 300 + ((index + i) % 3) * 100) : "Paragraph " + (i + 1)));
  }
  return h("section", null, h("h2", null, "Section " + (index + 1)), paragraphs);
}

/** The sections of the "defer-task" page, in a <main>. */
export function Sections({ sections }: { sections: number }) {
  const children = [];
  for (let i = 0; i < sections; i++) children.push(h(Section, { key: i, index: i }));
  return h("main", null, children);
}

export function Page({ sections }: { sections: number }) {
  return h("html", null, h("body", null, h(Sections, { sections })));
}

export interface Product {
  id: number;
  name: string;
  category: string;
  price: number;
  stock: number;
  rating: number;
}

export function products(count: number): Product[] {
  const list: Product[] = [];
  for (let i = 0; i < count; i++) {
    list.push({
      id: i + 1,
      name: "Product " + text(i, 18),
      category: WORDS[i % WORDS.length],
      price: Math.round(((i * 7919) % 10000) + 99) / 100,
      stock: (i * 31) % 500,
      rating: ((i * 13) % 50) / 10,
    });
  }
  return list;
}

export function ServerTable({ rows }: { rows: Product[] }) {
  return h(
    "table",
    null,
    h("thead", null, h("tr", null, ["Id", "Name", "Category", "Price", "Stock", "Rating"].map((label) => h("th", { key: label }, label)))),
    h(
      "tbody",
      null,
      rows.map((row) =>
        h(
          "tr",
          { key: row.id },
          h("td", null, row.id),
          h("td", null, row.name),
          h("td", null, row.category),
          h("td", null, row.price.toFixed(2)),
          h("td", null, row.stock),
          h("td", null, row.rating),
        ),
      ),
    ),
  );
}

