/**
 * The route template a request's path belongs to ("/api/surveys/:id", "/survey/:surveyId/fill/:patientId"),
 * for metrics labelled by route: a bounded set of values whatever the paths people send.
 */

export interface PageRoute {
  id: string;
  path?: string;
  parentId?: string;
}

interface Template {
  name: string;
  segments: string[];
  /** More literal segments first: "/surveys/benchmarkable" before "/surveys/:id". */
  literal: number;
}

function templateOf(name: string): Template {
  const segments = name.split("/").filter(Boolean);
  return { name, segments, literal: segments.filter((s) => !s.startsWith(":") && s !== "*").length };
}

function matches(template: Template, parts: string[]): boolean {
  const { segments } = template;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === "*") return true;
    const part = parts[i];
    if (part === undefined || part === "") return false;
    if (!segment.startsWith(":") && segment !== part) return false;
  }
  return parts.length === segments.length;
}

/** The full paths of the page routes, each route's path under its parents'. */
function pagePaths(routes: Record<string, PageRoute | undefined>): string[] {
  const full = (route: PageRoute): string => {
    const parent = route.parentId ? routes[route.parentId] : undefined;
    const own = route.path ?? "";
    const above = parent ? full(parent) : "";
    return [above, own].filter(Boolean).join("/");
  };
  return Object.values(routes).flatMap((route) => (route ? [`/${full(route)}`] : []));
}

/**
 * A function from a request's path to its template: the API's endpoints, the pages, the build's assets; any
 * other path is "other".
 */
export function routeTemplates(opts: {
  apiPaths: readonly string[];
  pages: Record<string, PageRoute | undefined>;
  assetsPrefix: string;
}): (path: string) => string {
  const api = [...new Set(opts.apiPaths.map((p) => `/api${p}`)), "/api/openapi.json", "/api/metrics"];
  const pages = pagePaths(opts.pages).filter((p) => p !== "/api/*");
  const templates = [...api, ...pages]
    .map(templateOf)
    .sort((a, b) => b.literal - a.literal || b.segments.length - a.segments.length);
  const exact = new Map(templates.filter((t) => t.literal === t.segments.length).map((t) => [t.name, t.name]));
  const apiTemplates = templates.filter((t) => t.name.startsWith("/api/"));
  const pageTemplates = templates.filter((t) => !t.name.startsWith("/api/"));
  return (path) => {
    if (path.startsWith(opts.assetsPrefix)) return `${opts.assetsPrefix}*`;
    const known = exact.get(path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path);
    if (known) return known;
    const parts = path.split("/").filter(Boolean);
    const list = path.startsWith("/api/") ? apiTemplates : pageTemplates;
    return list.find((t) => matches(t, parts))?.name ?? "other";
  };
}
