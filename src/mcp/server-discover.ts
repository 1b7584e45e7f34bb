import { PROTOCOL_VERSIONS } from './server-info.js';

/** Whether a parsed body is a server/discover request. */
export const isDiscover = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'server/discover';

/**
 * A server/discover answer whose `supportedVersions` names every version this server speaks. The
 * SDK lists only the 2026-era revisions there (the 2025 ones are negotiated at initialize), but a
 * client deciding how to talk to this endpoint should see both eras, as the server card does.
 * Clients pick from the list the revisions they know, so the added 2025 versions change no choice.
 * Any other answer (an error, an event stream) is returned as the SDK wrote it.
 */
export async function withEveryProtocolVersion(answer: Response): Promise<Response> {
  if (!answer.headers.get('content-type')?.startsWith('application/json')) return answer;
  const text = await answer.text();
  const rewritten = (body: string) => {
    const headers = new Headers(answer.headers);
    headers.delete('content-length');
    return new Response(body, { status: answer.status, headers });
  };
  let message: { result?: { supportedVersions?: unknown } };
  try {
    message = JSON.parse(text);
  } catch {
    return rewritten(text);
  }
  const listed = message.result?.supportedVersions;
  if (!Array.isArray(listed)) return rewritten(text);
  message.result!.supportedVersions = [...new Set([...listed, ...PROTOCOL_VERSIONS])];
  return rewritten(JSON.stringify(message));
}
