import type { AppConfig } from '../../config/app-config.js';
import type { ErrorEnvelope } from './error-envelope.dto.js';
import type { HttpProblem } from './http-problem.js';

/** The documented error body of a problem. */
export function toEnvelope(problem: HttpProblem, config: AppConfig): ErrorEnvelope {
  return {
    error: {
      code: problem.code,
      message: problem.message,
      status: problem.status,
      resolution: problem.resolution,
      documentation: config.url('/docs'),
    },
  };
}
