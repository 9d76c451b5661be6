/** Written by @remix-pwa/dev's build of the service worker: the path of every file of the browser build. */
declare module "virtual:assets-sw" {
  export const assets: string[];
}
