import { useEffect, useState } from "react";

/** False while the server renders and the page hydrates; true once JavaScript runs the page. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
