import { redirect } from "~/server/responses.server";

export function loader() {
  return redirect("/surveys");
}
