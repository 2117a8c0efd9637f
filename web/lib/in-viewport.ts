// Keeps a pop-up (a menu, a popover) inside the window. Menus are placed by CSS next to the
// control that opens them; near the window's right or bottom edge that place runs off
// screen, so once drawn (and on every resize) the pop-up is shifted back in (its CSS caps its width to the window) and, when
// taller than the room left, capped to it and scrolled. Used as `{@attach inViewport}`.

/** Space kept between a pop-up and the window's edge, in px. */
const MARGIN = 4;

/** The shift that brings [start, end) inside [0, size), preferring the start edge. */
export function shiftInto(start: number, end: number, size: number, margin = MARGIN): number {
  if (end > size - margin) {
    const back = end - (size - margin);
    return -Math.min(back, Math.max(0, start - margin));
  }
  if (start < margin) return margin - start;
  return 0;
}

export function inViewport(el: HTMLElement): () => void {
  function place(): void {
    el.style.translate = '';
    el.style.maxHeight = '';
    const r = el.getBoundingClientRect();
    const dx = shiftInto(r.left, r.right, window.innerWidth);
    const room = window.innerHeight - MARGIN - r.top;
    if (r.height > room && room > 0) {
      el.style.maxHeight = `${room}px`;
      el.style.overflowY = 'auto';
    }
    if (dx) el.style.translate = `${dx}px 0`;
  }
  place();
  window.addEventListener('resize', place);
  return () => window.removeEventListener('resize', place);
}
