import ts from "typescript";
import type { Plugin } from "vite";

/** What of an endpoint's contract the browser's client reads: how to call it. */
const CLIENT_KEYS = new Set(["method", "path"]);

/**
 * A contract module (app/contracts) as the browser gets it: each `contract({ … })` with its method and path
 * only. The browser's client takes those from the contract and the types from the source; it parses nothing,
 * and the schemas (the whole survey's among them) and the OpenAPI words would otherwise travel to every page
 * with the modules that call the API (docs/decisions/043-endpoint-contracts.md).
 */
export function clientContract(code: string, fileName: string): string {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const cuts: { start: number; end: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "contract") {
      const [spec] = node.arguments;
      if (spec && ts.isObjectLiteralExpression(spec)) {
        for (const property of spec.properties) {
          const name =
            (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) &&
            ts.isIdentifier(property.name)
              ? property.name.text
              : null;
          if (name && !CLIENT_KEYS.has(name)) cuts.push({ start: property.getFullStart(), end: property.getEnd() });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let out = code;
  for (const { start, end } of cuts.reverse()) {
    const after = out[end] === "," ? end + 1 : end;
    out = out.slice(0, start) + out.slice(after);
  }
  return withoutUnused(out, fileName);
}

/**
 * Drops the module's own top-level constants that nothing refers to any more (the schemas the contracts were
 * made of), until none is left: a schema made at the top level (`z.object(…).meta(…)` registers itself) would
 * otherwise stay, with every module it takes its parts from.
 */
function withoutUnused(code: string, fileName: string): string {
  for (;;) {
    const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const uses = referenceCounts(source);
    const unused = source.statements.find((statement) => {
      if (!ts.isVariableStatement(statement)) return false;
      if (statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return false;
      const declarations = statement.declarationList.declarations;
      return declarations.length === 1 && ts.isIdentifier(declarations[0].name) && !uses.get(declarations[0].name.text);
    });
    if (!unused) return code;
    code = code.slice(0, unused.getFullStart()) + code.slice(unused.getEnd());
  }
}

/** How often each name is referred to: declarations, property names and member names are not references. */
function referenceCounts(source: ts.SourceFile): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const named =
        (ts.isVariableDeclaration(parent) && parent.name === node) ||
        (ts.isPropertyAssignment(parent) && parent.name === node) ||
        (ts.isPropertyAccessExpression(parent) && parent.name === node);
      if (!named) counts.set(node.text, (counts.get(node.text) ?? 0) + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return counts;
}

/** Leaves the contracts in the browser build their method and path; the server build keeps them whole. */
export function clientContracts(): Plugin {
  return {
    name: "client-contracts",
    apply: "build",
    enforce: "pre",
    transform(code, id, options) {
      if (options?.ssr) return null;
      if (!/\/app\/contracts\/[\w-]+\.ts$/.test(id) || /\/(contract|params)\.ts$/.test(id)) return null;
      return { code: clientContract(code, id), map: null };
    },
  };
}
