// web/components/NoticeList.svelte rendered as text: a repeated notice's count stands apart
// from its sentence ("… ends early. ×3"), never glued to the full stop.
import { render } from 'svelte/server';
import { describe, expect, it } from 'vitest';
import NoticeList from '../../../../web/components/NoticeList.svelte';
import type { Notice } from '../../../../web/lib/notices.svelte.ts';

/** The text a reader sees: tags dropped, entities and whitespace as the browser reads them. */
function visibleText(html: string): string {
  return html.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
}

const notice = (count: number): Notice => ({ id: 1, kind: 'error', text: 'The file is not valid JSON; a cut-off download ends early.', count });

describe('the notice list', () => {
  it('puts a space between a repeated notice and its count', () => {
    const { body } = render(NoticeList, { props: { notices: [notice(3)], ondismiss: () => undefined } });
    expect(visibleText(body)).toContain('ends early. ×3');
    expect(visibleText(body)).not.toContain('early.×3');
  });

  it('shows no count for a notice said once', () => {
    const { body } = render(NoticeList, { props: { notices: [notice(1)], ondismiss: () => undefined } });
    expect(visibleText(body)).not.toMatch(/×\d/);
  });
});
