// The default browser entry of an app (contrail/app's loadApp): hydrate the page.
import { hydrate } from "./browser.ts";

hydrate();
