// Capture as the page sees it: one listener told which sessions changed once this worker
// holds the change, and the exchanges storage refused, which the page keeps and hands back.
import type { CaptureListener } from './capture-owner.js';
import type { ServiceContext } from './context.js';

export function createCaptureService({ owner, unsaved }: Pick<ServiceContext, 'owner' | 'unsaved'>) {
  return {
    /**
     * The page's listener for capture: called with the sessions that changed, once this worker
     * holds the change (a read right after sees it). One per page; null stops it.
     */
    watch(listener: CaptureListener | null): void {
      owner.listen(listener);
    },
    /** Exchanges storage refused, held in the page's memory; the newest copy of an id wins. */
    hold: unsaved.api.holdUnsaved,
    /** Held exchanges that were written after all (or whose session was cleared). */
    release: unsaved.api.releaseUnsaved,
  };
}
