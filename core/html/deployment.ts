// What a page knows of the build that rendered it, from a small script
// written before its bootstrap module (contrail/app's `loadApp` gives it to
// react-dom/server as `bootstrapScriptContent`): the build's deployment id,
// which the page's navigations and server function calls send
// (../serve/deployment.ts), kept where no other script's global can clash
// with it; and a guard for the build's own files (`/_contrail/`). Behind a
// balancer whose machines serve different builds during a rolling deploy,
// a file may be asked of a machine that never had it (an old machine asked
// for a new build's bundle, say), which answers 404: the script or
// stylesheet that failed is fetched again (by another URL, so neither the
// browser nor the balancer takes the failure for the answer), which the
// balancer sends on to the next machine; after a few failures the page
// reloads once (once per build, by sessionStorage, so it never loops).

const SLOT = Symbol.for("contrail.deployment");

/** The deployment id of the build that rendered this page; undefined if the server has none. */
export function pageDeploymentId(): string | undefined {
  return (globalThis as any)[SLOT];
}

/** How many times a failed file is fetched again before the page reloads. */
const RETRIES = 3;

// Runs in the page before any bundle: plain JavaScript, kept short (every
// page carries it). `d` is the id, `o` the build's files' URL prefix, `f`
// fetches a failed script or stylesheet again with `?retry=<n>`, or after
// RETRIES tries reloads the page once per build; the capture listener sees
// the files that fail from now on, the loop those of <head> that failed
// already (where the browser tells a resource's status).
const GUARD = `(d=>{self[Symbol.for("contrail.deployment")]=d;const n=document.currentScript?.nonce,o=location.origin+"/_contrail/",
f=e=>{const s=e instanceof HTMLScriptElement,h=s?e.src:e instanceof HTMLLinkElement&&e.rel=="stylesheet"?e.href:"";if(!h.startsWith(o))return;
const u=new URL(h),t=+u.searchParams.get("retry");if(t<${RETRIES}){u.searchParams.set("retry",t+1);const a=document.createElement(e.tagName);
if(n)a.nonce=n;if(s){a.type=e.type;a.src=u}else{a.rel="stylesheet";a.href=u}return e.after(a)}
try{if(sessionStorage.getItem("contrail.reloaded")==d)return;sessionStorage.setItem("contrail.reloaded",d)}catch{return}location.reload()};
addEventListener("error",e=>f(e.target),true);
for(const l of document.querySelectorAll('link[rel="stylesheet"]'))if(performance.getEntriesByName(l.href)[0]?.responseStatus>=400)f(l)})`.replace(/\n/g, "");

/** The script that tells the page its build and guards its files (`bootstrapScriptContent`). */
export function deploymentScript(id: string): string {
  // `<` escaped: an id from CONTRAIL_DEPLOYMENT_ID must not end the script.
  return `${GUARD}(${JSON.stringify(id).replace(/</g, "\\u003c")})`;
}
