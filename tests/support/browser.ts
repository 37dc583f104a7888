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

export async function launchBrowser(): Promise<Browser> {
  return playwright.launch({ executablePath: await chromium.executablePath(), args: FLAGS });
}
