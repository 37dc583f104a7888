// The default browser entry of an app (contrail/app's loadApp): hydrate the
// page; links, back and forward then navigate on the client.
import { hydrate } from "./browser.ts";

hydrate();
