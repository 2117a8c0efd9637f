// The one definition of how long a call took, shared by the list's Duration column and the
// thread header: from its first request to the last answer any of its rounds received. A
// round sent after that and never answered does not lengthen it (nothing came back); a
// call with no answer at all has no duration yet.

export function callDuration(rounds: readonly { sentAt: number; answeredAt: number | null }[], startedAt = rounds[0]?.sentAt): number | null {
  let end: number | null = null;
  for (const r of rounds) if (r.answeredAt !== null && (end === null || r.answeredAt > end)) end = r.answeredAt;
  return end !== null && startedAt !== undefined ? Math.max(0, end - startedAt) : null;
}
