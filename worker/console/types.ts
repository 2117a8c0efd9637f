// Shapes shared by the Console's model layer (request building, step-through, tamper tests,
// replay). Plain, structured-cloneable data: the page gets them through the facade, the CLI
// prints them. The transport is the one thing injected: the page's fetch in the browser (so
// the service worker taps it), Node's fetch in the CLI and the tests.
import type { HeaderPair, JsonRpcId, SseEventRecord } from '../protocol.js';
import type { SendLink } from './link.js';

export type { SendLink } from './link.js';

/** A JSON-RPC request as the Console builds it (params always an object). */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown>;
}

/** A request ready to serialise: the JSON-RPC body and its HTTP headers, in send order. */
export interface BuiltRequest {
  body: JsonRpcRequest;
  headers: HeaderPair[];
}

/** One HTTP request exactly as it goes on the wire (the body text is sent verbatim). */
export interface ConsoleRequest {
  url: string;
  method: 'POST';
  headers: HeaderPair[];
  body: string;
  /**
   * The record this send is filed under (and what it re-enacts). Never sent as such: a
   * transport that knows a tap turns it into the link header (link.ts), others ignore it.
   */
  link?: SendLink;
}

/**
 * What a transport hands back. A network failure is data, not a throw: status 0 and
 * `error` (as a browser reports a failed fetch). An event stream comes back as its events.
 */
export interface ConsoleResponse {
  status: number;
  statusText?: string;
  headers: HeaderPair[];
  body?: string;
  events?: SseEventRecord[];
  /** Epoch ms: request sent, response head arrived, body finished. */
  sentAt?: number;
  receivedAt?: number;
  endedAt?: number;
  /** Why the exchange failed (unreachable, aborted, timed out). */
  error?: string;
  /** The record id of a linked send (`link.id`): its record keeps that id, whoever stores it. */
  recordId?: string;
  /**
   * The capture service worker took the send under `link.id` (it marked the answer): the
   * tap fills in the record the Console saved as pending. Absent: not taken, the Console
   * stores its own copy under that id.
   */
  tapped?: { id: string };
}

/** Sends one request. Must not throw for network trouble; a throw is treated as one anyway. */
export type Transport = (req: ConsoleRequest) => Promise<ConsoleResponse>;

/** One embedded input request, as the server sent it inside `inputRequests`. */
export interface InputRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** The result of a round, read from the JSON-RPC answer to our request id. */
export type RoundReading =
  | { kind: 'input_required'; result: Record<string, unknown>; inputRequests: Record<string, InputRequest>; requestState?: string }
  | { kind: 'complete'; result: Record<string, unknown> }
  | { kind: 'error'; error: { code: number; message: string; data?: unknown }; status: number }
  /** The HTTP exchange failed, or the answer could not be read (no response for our id…). */
  | { kind: 'failed'; message: string; status: number };

/** The kinds of input request the Console can answer. */
export type InputKind = 'elicitation-form' | 'elicitation-url' | 'sampling' | 'roots' | 'unknown';

/** An answer remembered for auto mode and replay: matched by key, else by kind and position. */
export interface SavedAnswer {
  key: string;
  /** The input request's method (and for elicitation, its mode) the answer was given to. */
  kind: InputKind;
  response: Record<string, unknown>;
  /** Form fields that look secret (secret-fields.ts): never stored, so absent from an answer read back. */
  withheld?: string[];
}
