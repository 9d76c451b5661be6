import { lazy, memo, Suspense, type ComponentType } from "react";

/**
 * A part of a page whose code loads on demand, but which the server draws with the page.
 *
 * It sits in a boundary of its own that draws again only when its props change. The page's first draw in the
 * browser (useHydrated turning true, state a mount effect sets) must not reach the boundary while the part's
 * code is still on its way: React would throw the server's drawing of it away and draw it anew once the code
 * came (its error 421). On a slow tablet that is a control gone from under a finger for a moment, or a focus
 * lost. So its props stay the same across that first draw: no `hydrated` (the part asks useHydrated itself),
 * and no object or function made anew on each draw.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>) {
  // lazy()'s type does not carry a generic P through; the part is drawn with exactly P.
  const Part = lazy(() => load().then((component) => ({ default: component }))) as unknown as ComponentType<P>;
  return memo(function LazyPart(props: P) {
    return (
      <Suspense fallback={null}>
        <Part {...props} />
      </Suspense>
    );
  });
}
