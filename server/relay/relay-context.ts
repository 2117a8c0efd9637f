// The shared state the relay's routes work on: a type of its own, so the routes (page-api.ts)
// need not import the relay that builds it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExchangeRecord } from '../../worker/protocol.js';
import type { Backlog } from './backlog.js';
import type { CaptureFile } from './capture-file.js';
import type { ExchangeRecorder, ExchangeStart } from './exchange-recorder.js';
import type { MockHost } from './mock-host.js';
import type { PageHub } from './page-hub.js';
import type { RelayRoute } from './relay-exchange.js';
import type { StdioAttachments } from './stdio-attach.js';
import type { TargetStore } from './target-store.js';

/** Shared state the routes work on. */
export interface RelayContext {
  token: string;
  /** What the page's cookie holds; the page API wants it (guards.ts, pageSecretProblem). */
  pageSecret: string;
  targets: TargetStore;
  capture: CaptureFile;
  /** The capture file handed to pages, with acknowledgements (backlog.ts). */
  backlog: Backlog;
  pages: PageHub;
  /** Resolves a target id to where it goes, or undefined when the user never added it. */
  route(req: IncomingMessage, targetId: string, query: URLSearchParams): RelayRoute | undefined;
  /** Runs one relayed exchange within the relay's concurrency bound (503 beyond it). */
  bounded: (res: ServerResponse, work: () => Promise<void>) => Promise<void>;
  /** A recorder for one external client's exchange (source 'relay'). */
  recorder(req: IncomingMessage, start: Omit<ExchangeStart, 'id' | 'seq' | 'session' | 'client'>): ExchangeRecorder;
  demoUrl(req: IncomingMessage): string;
  /** Stdio servers attached by `wrap --serve`, each a target `stdio-<name>`. */
  stdio: StdioAttachments;
  /** Mocks the page serves ("Serve as mock"), each a target `mock-<name>`. */
  mocks: MockHost;
  /** The most bytes of a capture the page may hand over for one mock. */
  maxMockBytes: number;
  /** Takes a record made elsewhere (a stdio wrap) into the capture path, in the relay's
   *  session; `stage` 'event' when a held open record grew (default: by its state). */
  ingest(record: ExchangeRecord, stage?: 'request' | 'event' | 'end'): void;
  relayUrl(req: IncomingMessage, targetId: string): string;
}
