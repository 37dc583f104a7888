// react-server-dom-webpack ships no types; tests and the bench use it untyped.
declare module "react-server-dom-webpack/server.edge";
declare module "react-server-dom-webpack/client.edge";
declare module "react-server-dom-webpack/client.browser";
declare module "autocannon";
declare module "react-server-dom-webpack/client";
declare module "react-server-dom-webpack/static.edge";
declare module "react-server-dom-webpack/static.node";
declare module "react-server-dom-webpack/server.node";
declare module "react-server-dom-webpack/server";
