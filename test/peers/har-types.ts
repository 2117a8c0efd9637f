// The slice of HAR 1.2 the recording proxy writes, plus the inspector's `_mrtr` extension.

// One header as sent, name casing and order preserved.
export interface HarHeader {
  name: string;
  value: string;
}

// One server-sent event with the wall-clock time (epoch ms) it reached the proxy.
export interface MrtrEvent {
  t: number;
  event?: string;
  data: string;
  id?: string;
}

// One HTTP exchange.
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: never[];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: never[];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { blocked: number; dns: number; connect: number; ssl: number; send: number; wait: number; receive: number };
  serverIPAddress?: string;
  /** The client socket's remote port, so exchanges from different clients can be told apart. */
  connection: string;
  _mrtr: { source: 'import'; client: string; events: MrtrEvent[] };
}

// A whole HAR document.
export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    pages: never[];
    entries: HarEntry[];
  };
}

// Ground truth a record script writes beside its HARs: which exchanges make up each call.
export interface ManifestCall {
  method: string;
  name: string;
  /** 0-based positions in log.entries of this call's HTTP exchanges, in order. */
  exchanges: number[];
  /** Requests the client sent for this call (the original plus each retry). */
  rounds: number;
  finalOutcome: 'complete' | 'error';
  /** The exchange whose retry carried a deliberately altered requestState. */
  tampered?: number;
  /** Legacy only: the exchanges in which the client POSTed its answers (answered 202). */
  answerExchanges?: number[];
  /** Legacy only: the exchange whose SSE stream carried the server's requests. */
  serverRequestsOn?: number;
  note?: string;
}

// One fixture's entry in manifest.json.
export interface ManifestFixture {
  era: '2026-07-28' | '2025-11-25';
  client: string;
  server: string;
  entryCount: number;
  calls: ManifestCall[];
  /** Exchanges outside any call (discovery, listings, notifications, streams). */
  other: { seq: number; method: string }[];
}

// manifest.json as a whole.
export interface Manifest {
  version: 1;
  stateKey: string;
  fixtures: Record<string, ManifestFixture>;
}
