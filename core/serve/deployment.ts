// Rolling deploys: each build has an identity (its deployment id, see
// core/bundle/build.ts). A page carries the id of the build that rendered it
// (core/html/deployment.ts), and its client navigations and server function
// calls send it back in `x-deployment-id`, as Next.js's do. A server of
// another build refuses them: a navigation then loads the page as a
// document, from whichever build serves it, and a call fails with an error
// that says the app was updated, before the function (which may have
// changed, or gone) runs with the old page's arguments.

/** The header a page's requests name its build in, and a page's answer the server's. */
export const DEPLOYMENT_HEADER = "x-deployment-id";

/** The status a server answers a request from another build's page with. */
export const OTHER_DEPLOYMENT_STATUS = 409;

/** Whether `request` comes from a page of a build other than `own` (a request that names none is not checked). */
export function fromOtherDeployment(request: Request, own: string | undefined): boolean {
  if (own === undefined) return false;
  const sent = request.headers.get(DEPLOYMENT_HEADER);
  return sent !== null && sent !== own;
}
