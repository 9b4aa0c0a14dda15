import type { Response } from 'express';

/**
 * Answers `body` as JSON, as `res.status(status).json(body)` would for a POST, minus what only
 * GET answers use: no ETag (a hash of every body), no freshness check. For the hot paths
 * (`POST /mcp`); other routes keep `res.json`.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
