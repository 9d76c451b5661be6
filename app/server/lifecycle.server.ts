/**
 * Where this copy of the server stands in its life: serving, or draining after SIGTERM. Readiness says
 * "not ready" while draining, so that a proxy or orchestrator sends new work to the other copies while
 * the requests already here finish.
 */
let draining = false;

export function startDraining(): void {
  draining = true;
}

export function isDraining(): boolean {
  return draining;
}

/** For tests: back to serving. */
export function resetLifecycleForTests(): void {
  draining = false;
}
