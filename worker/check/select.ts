// Which of the server's tools, prompts and resources the check calls. A tool that may
// change the world (destructiveHint true, or not marked readOnlyHint) is listed and skipped
// unless the user allows destructive tools or names it with --tool: the check sends many
// calls, each with made-up arguments, and some probes repeat a completed call on purpose.
import { asObject, own } from '../decode/meta.js';

/** `*` any run of characters, `?` one; the whole name must match. */
export function globMatch(glob: string, name: string): boolean {
  const re = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 's').test(name);
}

/** Whether a tool's annotations let the check call it without being asked to. */
export function isReadOnly(annotations: unknown): boolean {
  const a = asObject(annotations);
  return own(a, 'readOnlyHint') === true && own(a, 'destructiveHint') !== true;
}

/**
 * Whether completing the call does something that must happen at most once: the tool says
 * it is destructive, or says outright that repeating it has a further effect (idempotentHint
 * false on a tool that is not read-only). Then a completed round's state is a redemption,
 * and M13 (mrtr:238-243) requires single use.
 */
export function isOneTime(annotations: unknown): boolean {
  const a = asObject(annotations);
  if (own(a, 'readOnlyHint') === true) return false;
  return own(a, 'destructiveHint') === true || own(a, 'idempotentHint') === false;
}

/** Why a tool may change data (so is skipped unless allowed), or undefined when it is read-only. */
export function changesData(annotations: unknown): string | undefined {
  if (isReadOnly(annotations)) return undefined;
  return own(asObject(annotations), 'destructiveHint') === true ? 'annotated destructiveHint: true' : 'not annotated readOnlyHint: true';
}

/** Why a target is left out, or undefined to call it. `allow` names tools let through although
 *  not read-only (the page's ticks); `howToAllow` ends the reason (the CLI names its options). */
export function skipReason(name: string, opts: { tools?: readonly string[]; skip?: readonly string[]; allowDestructive?: boolean; allow?: readonly string[] }, tool?: { annotations?: unknown },
  howToAllow = 'run with --allow-destructive or name it with --tool'): string | undefined {
  if (opts.skip?.some((g) => globMatch(g, name))) return 'matches --skip';
  const named = opts.tools !== undefined && opts.tools.length > 0;
  if (named && !opts.tools!.some((g) => globMatch(g, name))) return 'not named by --tool';
  const why = tool && !named && !opts.allowDestructive && !opts.allow?.includes(name) ? changesData(tool.annotations) : undefined;
  return why !== undefined ? `${why}: may change data; ${howToAllow}` : undefined;
}
