// The lines the inspector prints when it starts, the same for `npm start`, `npx
// mrtr-inspector` and `vite dev`. Users stumble on which URL captures: a client pointed at
// the demo's own URL works but is not recorded, so the banner says so in as many words.

/** What the banner names. */
export interface BannerInfo {
  port: number;
  token: string;
  /** The page link's token: the Inspector line is the link that lets a browser in. */
  pageToken: string;
  jsonlPath: string;
  /** The 0600 file holding the link and tokens for `wrap` (info-file.ts), once written. */
  infoFile?: string;
  /** False when the embedded demo server is off (--no-demo). */
  demo: boolean;
  /** Watched targets added on the command line (--target), by id. */
  targets?: readonly { id: string; url: string }[];
}

/** The relay URL real clients accept for a target: the MCP-conventional `/mcp` form. */
export function relayMcpUrl(origin: string, token: string, targetId: string): string {
  return `${origin}/relay/${token}/${targetId === '<target>' ? targetId : encodeURIComponent(targetId)}/mcp`;
}

/** The banner text, framed by blank lines. */
export function inspectorBanner(info: BannerInfo): string {
  const origin = `http://127.0.0.1:${info.port}`;
  const lines = [
    '',
    `  mrtr-inspector`,
    `  Inspector:   ${origin}/?token=${info.pageToken}`,
    `               open this link: it lets your browser in (then ${origin}/ works in that browser)`,
    `  Relay URL:   ${relayMcpUrl(origin, info.token, '<target>')}`,
    `               captured: point MCP clients here${info.demo ? `, e.g. ${relayMcpUrl(origin, info.token, 'demo')}` : ''}`,
  ];
  for (const t of info.targets ?? []) lines.push(`  Target:      ${t.id} = ${t.url}  → ${relayMcpUrl(origin, info.token, t.id)}`);
  lines.push(info.demo ? `  Demo MCP:    ${origin}/demo/mcp   (called directly: not captured; use the relay URL to capture)` : `  Demo MCP:    off (--no-demo)`);
  lines.push(
    `  Captures:    ${info.jsonlPath}   (written while no inspector page is open)`,
    `  Stdio:       mrtr-inspector wrap${info.port === 5173 ? '' : ` --inspector ${origin}`} -- <server command>`,
    ...(info.infoFile ? [`               (wrap reads the token from ${info.infoFile}, readable only by you)`] : []),
    '',
  );
  return lines.join('\n');
}
