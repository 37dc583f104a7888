"use client";
import { Component, createElement as h, type ReactNode } from "react";

type State = { error: (Error & { digest?: string }) | null };

/**
 * Shows what went wrong below it. In development a server error carries the
 * server's message; in production only its digest (React replaces the message).
 */
export class ErrorBoundary extends Component<{ children?: ReactNode }, State> {
  state: State = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const detail = process.env.NODE_ENV === "production" ? "" : ": " + error.message;
    return h("p", { role: "alert", id: "error-boundary" }, "This part failed to load" + detail + " (digest " + error.digest + ").");
  }
}
