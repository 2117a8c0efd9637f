// Why a round was linked `ambiguous`, in words: the calls it could have continued, named
// as a person would, and the threader's reason for the tie. Shown on the list's "?" and
// in the thread header, where the ambiguous round is the first of its conversation.

/** "could continue the book call of 12:00:01 or the book call of 12:00:02: <reason>". */
export function ambiguityText(reason: string | null | undefined, candidates: readonly string[], label: (id: string) => string): string {
  const names = candidates.map(label);
  const which = names.length === 0 ? 'could continue more than one open call'
    : `could continue ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`}`;
  return reason ? `${which}: ${reason}` : which;
}
