// The page's side of the Console's send guard (worker/console/send-guard.ts): what this page
// has used (hosts confirmed at a prompt, stdio servers picked in the Console), and the prompt
// that names a host the user has not used yet. Page memory only: a reload asks again.
import { judgeSend } from '../../worker/console/send-guard.js';

const confirmed = new Set<string>();
const picked = new Set<string>();

/** The user picked this attached stdio server in the Console: sends to it are theirs. */
export function pickStdio(name: string): void {
  picked.add(name);
}

// The inspector as 127.0.0.1 and as localhost on the same port: both are its own origin.
function ownOrigins(): string[] {
  const here = new URL(location.origin);
  const other = here.hostname === 'localhost' ? '127.0.0.1' : here.hostname === '127.0.0.1' ? 'localhost' : null;
  return other ? [here.origin, `${here.protocol}//${other}${here.port ? `:${here.port}` : ''}`] : [here.origin];
}

/**
 * Whether a Console send to `url` may go: undefined when it may, else why not (already
 * said to the user by the caller). A host not used yet in this page is asked about first.
 */
export function sendConsent(url: string, watched: readonly { url: string }[]): string | undefined {
  const used = new Set(confirmed);
  for (const t of watched) {
    try {
      used.add(new URL(t.url).origin);
    } catch {
      // a watched URL that does not parse names no origin
    }
  }
  const v = judgeSend(url, { ownOrigins: ownOrigins(), usedOrigins: used, pickedStdio: picked });
  if (v.kind === 'allowed') return undefined;
  if (v.kind === 'refused') return v.reason;
  const ok = window.confirm(`Send to ${v.host}?\n\nThe Console has not sent to ${v.host} in this page yet. A request re-sent from a capture goes where the capture says, with what it carries; send only if you trust ${v.host}.`);
  if (!ok) return `Not sent: you declined to send to ${v.host}.`;
  confirmed.add(new URL(url, location.origin).origin);
  return undefined;
}
