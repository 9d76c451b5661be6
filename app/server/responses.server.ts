/**
 * What route modules' loaders and actions answer with: the page framework's helpers, through a server-only
 * module, so that the browser's build never reaches the Node adapter (its fetch, streams and file storage)
 * from a route file.
 */
export { data, redirect } from "@remix-run/node";
