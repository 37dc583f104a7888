// Headless Chromium from npm: @sparticuz/chromium ships it compressed inside
// the package and unpacks it on first use, so no system browser is needed;
// playwright-core drives it.
import chromium from "@sparticuz/chromium";
import { chromium as playwright, type Browser } from "playwright-core";

// Without the background-networking flags Chromium keeps dialling Google's
// hosts, which a closed network refuses many at a time.
const FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

// Playwright's 30 s default for each wait is a verdict on the machine's load
// (a 2 MB page on 2 busy cores can take longer): waits get a hang guard instead.
const HANG_GUARD_MS = 180_000;

export async function launchBrowser(): Promise<Browser> {
  const browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: FLAGS, timeout: HANG_GUARD_MS });
  // Every page's context, newPage()'s own included, comes from newContext().
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(HANG_GUARD_MS);
    return context;
  };
  return browser;
}
