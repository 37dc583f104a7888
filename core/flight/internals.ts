// React's shared server internals, and which build of React is running.
import * as React from "react";

export const internals = (React as any).__SERVER_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
if (!internals) {
  throw new Error(
    'The "react" package in this environment is not configured correctly. ' +
      'The "react-server" condition must be enabled in any environment that runs React Server Components.',
  );
}

/**
 * Development mode follows the React build in use, not `process.env`: only
 * React's development build has `getCurrentStack` (null until a renderer sets
 * it), and a bundler that `define`s NODE_ENV picks that build the same way.
 */
export const DEV: boolean = internals.getCurrentStack !== undefined;
