type Level = "error" | "info" | "debug";
const order: Record<Level | "silent", number> = { silent: 0, error: 1, info: 2, debug: 3 };

let threshold: Level | "silent" = "info";

export function setLogLevel(level: Level | "silent") {
  threshold = level;
}

function write(level: Level, msg: string, fields: Record<string, unknown>) {
  if (order[level] > order[threshold]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  (level === "error" ? process.stderr : process.stdout).write(line + "\n");
}

/** One JSON object per line, to stdout (stderr for errors). */
export const log = {
  error: (msg: string, fields: Record<string, unknown> = {}) => write("error", msg, fields),
  info: (msg: string, fields: Record<string, unknown> = {}) => write("info", msg, fields),
  debug: (msg: string, fields: Record<string, unknown> = {}) => write("debug", msg, fields),
};
