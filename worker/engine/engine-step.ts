// What one step of the analysis engine hands back: the analysis as it stands, and what
// changed since the step before. The whole lists (every finding, every token) are built on
// first read: a live host mostly reads only the changed rows.
//
// Hazard: those lists are built when first read, from the engine as it is then. Read them
// before the next step, or they may show that step's findings and readings.
import type { Conversation, Finding, TokenReading } from '../protocol.js';

/** The analysis after one step, and what changed in it. */
export interface EngineStep {
  conversations: Conversation[];
  /** Every distinct token, in the order the batch analysis lists them (built on first read). */
  readonly tokens: Map<string, TokenReading>;
  /** Every finding, sorted (built on first read). */
  readonly findings: Finding[];
  /** Ids of conversations whose rows may differ from the previous step's. */
  changed: ReadonlySet<string>;
  /** Ids of conversations that existed in the previous step and no longer do. */
  removed: ReadonlySet<string>;
  /** Everything was re-threaded (every Conversation object is new). */
  full: boolean;
  /** Conversations and exchanges still to be checked (a budgeted step left them). */
  unchecked: number;
}

/** A step's answer whose `findings` and `tokens` are built by `build` once, on first read. */
export function engineStep(
  step: Pick<EngineStep, 'conversations' | 'changed' | 'removed' | 'full' | 'unchecked'>,
  build: { findings(): Finding[]; tokens(): Map<string, TokenReading> },
): EngineStep {
  let findings: Finding[] | undefined;
  let tokens: Map<string, TokenReading> | undefined;
  return {
    conversations: step.conversations, changed: step.changed, removed: step.removed, full: step.full, unchecked: step.unchecked,
    get findings() {
      return (findings ??= build.findings());
    },
    get tokens() {
      return (tokens ??= build.tokens());
    },
  };
}
