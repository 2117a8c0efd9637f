// Public API of capture import and export (HAR 1.2 and our JSONL). Plain TypeScript with no
// DOM and no Node APIs, so the analysis worker and the CLI share it.
export { importCapture, importHarChunks } from './import.js';
export { exportHar, harEntry, HAR_CREATOR, type CookieSource } from './har-export.js';
export { readHarEntry, type EntryNote, type EntryRead, type EntryOptions } from './har-import.js';
export { exportJsonl, jsonlLine, readJsonl, JSONL_KIND, JSONL_VERSION, type JsonlHeader } from './jsonl.js';
export { EventStreamReader, parseEventStreamText, serializeEventStream, type ParsedEventStream } from './event-stream.js';
export { ResponseRecording, headerPairs, isEventStream, type Clock, type RecordedEnd, type RecordedHead, type RecordingOptions } from './recording.js';
export { sanitizeRecord, redactText, redactCookies, isSensitiveHeader, REDACTED } from './sanitize.js';
export { scanJson, lineColumn, type JsonScan, type JsonSyntaxProblem } from './json-scan.js';
export type { CaptureError, CaptureFormat, ExportOptions, ImportOptions, ImportOutcome, SkippedEntry } from './types.js';
