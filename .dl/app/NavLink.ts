"use client";
// A navigation link that marks the current page: Link navigates on the
// client, useLocation re-renders it when the URL changes.
import { createElement as h, type ReactNode } from "react";
import { Link, useLocation } from "../../core/html/browser.ts";

export function NavLink({ href, children }: { href: string; children?: ReactNode }) {
  const { pathname } = useLocation();
  const current = href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(href + "/");
  return h(Link, { href, "aria-current": current ? "page" : undefined }, children);
}
