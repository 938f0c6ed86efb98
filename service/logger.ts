/** One-line JSON logs on stderr, so stdout stays free for command output. */

export interface Logger {
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

/** `environment.CKA_LOG=quiet` leaves info out. */
export function createLogger(component: string, environment: NodeJS.ProcessEnv = process.env): Logger {
  const write = (level: string, message: string, details: Record<string, unknown> = {}) => {
    if (level === "info" && environment.CKA_LOG === "quiet") return;
    process.stderr.write(
      `${JSON.stringify({ time: new Date().toISOString(), level, component, message, ...details })}\n`,
    );
  };
  return {
    info: (message, details) => write("info", message, details),
    warn: (message, details) => write("warn", message, details),
    error: (message, details) => write("error", message, details),
  };
}
