import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getContext } from "~/server/context.server";

/** Mounts the REST API (section 7 of the specification) at /api. */
export function loader({ request }: LoaderFunctionArgs) {
  return getContext().api.fetch(request);
}

export function action({ request }: ActionFunctionArgs) {
  return getContext().api.fetch(request);
}
