// Client components of the corpus (the decode side's real modules).
import { Component, createElement as h, type ReactNode } from "react";
import { scenarioClientModules } from "../../bench/client-components.ts";

/** A client error boundary: what it shows names the digest of the error it caught. */
class Guard extends Component<{ children?: ReactNode }, { error: any }> {
  state = { error: null as any };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  render() {
    return this.state.error ? h("p", { role: "alert" }, "caught " + this.state.error.digest) : this.props.children;
  }
}

const testClient = {
  Guard,
  Box: ({ children, label }: any) => h("section", { "aria-label": label }, children),
  Show: ({ value }: any) => h("pre", null, typeof value === "object" ? Object.prototype.toString.call(value) : String(value)),
};

export const clientModuleExports: Record<string, Record<string, unknown>> = {
  ...scenarioClientModules,
  "./test-client": testClient,
};
