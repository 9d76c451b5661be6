// The types of the server build as server/*.js load it: the framework's build, with the app's entry module.
import type { ServerBuild } from "@remix-run/node";
import type * as entry from "../app/entry.server";

export type EntryModule = typeof entry;
export type AppBuild = Omit<ServerBuild, "entry"> & { entry: { module: EntryModule } };

/** What the app's boot hands back: its settings and a way to stop it. */
export type Runtime = Awaited<ReturnType<EntryModule["boot"]>>;
/** The options of the embedded identity provider, as boot passes them to startIdp. */
export type IdpOptions = Parameters<EntryModule["startEmbeddedIdp"]>[0];
