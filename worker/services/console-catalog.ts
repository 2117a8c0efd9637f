// Connecting the Console to a server: `server/discover`, then the tool, prompt, resource
// and template lists (each page of each, up to a bound), over the injected transport. A
// list the server refuses becomes a problem line; nothing here throws for a bad server.
import { asObject, own, META_SERVER_INFO } from '../decode/meta.js';
import {
  buildRequest, capabilitiesFrom, consoleRecord, formFromSchema, initialValues, readRound, sendSafely, toHttp,
  type ConsoleRequest, type ConsoleResponse, type RoundReading, type Transport,
} from '../console/index.js';
import type { CatalogPrompt, CatalogResource, CatalogTemplate, CatalogTool, ClientSetup, ServerCatalog } from '../view/console-types.js';

const MAX_PAGES = 20;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Sends one non-MRTR request and reads its answer; the exchange is handed to `keep`. */
async function ask(url: string, method: string, params: Record<string, unknown>, setup: ClientSetup, send: Transport, id: number,
  keep: (req: ConsoleRequest, res: ConsoleResponse) => void): Promise<RoundReading> {
  const built = buildRequest({ method, params, id, clientInfo: setup.clientInfo, capabilities: capabilitiesFrom(setup.toggles) });
  const req = toHttp(url, built);
  const res = await sendSafely(send, req);
  keep(req, res);
  return readRound(consoleRecord(req, res, { id: '', seq: 0 }), id);
}

function why(method: string, r: RoundReading): string {
  if (r.kind === 'error') return `${method}: error ${r.error.code} ${r.error.message}`;
  if (r.kind === 'failed') return `${method}: ${r.message}`;
  return `${method}: answered input_required, which it must not (mrtr:192)`;
}

/** Discovers the server and lists what it offers. */
export async function loadCatalog(url: string, setup: ClientSetup, send: Transport, keep: (req: ConsoleRequest, res: ConsoleResponse) => void = () => {}): Promise<ServerCatalog> {
  const cat: ServerCatalog = { url, discover: null, serverInfo: null, supportedVersions: [], tools: [], prompts: [], resources: [], templates: [], problems: [] };
  let id = 0;
  const d = await ask(url, 'server/discover', {}, setup, send, ++id, keep);
  if (d.kind === 'complete') {
    cat.discover = d.result;
    const info = asObject(own(asObject(own(d.result, '_meta')), META_SERVER_INFO));
    if (info) cat.serverInfo = `${str(own(info, 'name')) ?? '?'} ${str(own(info, 'version')) ?? ''}`.trim();
    const v = own(d.result, 'supportedVersions');
    if (Array.isArray(v)) cat.supportedVersions = v.filter((x): x is string => typeof x === 'string');
  } else {
    cat.problems.push(why('server/discover', d));
    // Nothing answered at all: the lists would fail the same way.
    if (d.kind === 'failed' && d.status === 0) return cat;
  }
  const list = async (method: string, field: string): Promise<Record<string, unknown>[]> => {
    const out: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await ask(url, method, cursor !== undefined ? { cursor } : {}, setup, send, ++id, keep);
      if (r.kind !== 'complete') {
        cat.problems.push(why(method, r));
        break;
      }
      const items = own(r.result, field);
      if (Array.isArray(items)) for (const it of items) { const o = asObject(it); if (o) out.push(o); }
      cursor = str(own(r.result, 'nextCursor'));
      if (cursor === undefined) break;
    }
    return out;
  };
  cat.tools = (await list('tools/list', 'tools')).flatMap((t): CatalogTool[] => {
    const name = str(t.name);
    if (name === undefined) return [];
    const form = t.inputSchema !== undefined ? formFromSchema(t.inputSchema) : null;
    const usable = form && form.problems.length === 0 ? form : form && form.fields.length > 0 ? form : null;
    return [{ name, ...(str(t.title) ? { title: str(t.title) } : {}), ...(str(t.description) ? { description: str(t.description) } : {}),
      ...(t.inputSchema !== undefined ? { inputSchema: t.inputSchema } : {}), ...(asObject(t.annotations) ? { annotations: asObject(t.annotations) } : {}), form: usable, values: usable ? initialValues(usable) : {} }];
  });
  cat.prompts = (await list('prompts/list', 'prompts')).flatMap((p): CatalogPrompt[] => {
    const name = str(p.name);
    if (name === undefined) return [];
    const args = Array.isArray(p.arguments) ? p.arguments.map(asObject).filter((a): a is Record<string, unknown> => !!a && typeof a.name === 'string') : [];
    return [{ name, ...(str(p.description) ? { description: str(p.description) } : {}),
      arguments: args.map((a) => ({ name: a.name as string, required: a.required === true, ...(str(a.description) ? { description: str(a.description) } : {}) })) }];
  });
  cat.resources = (await list('resources/list', 'resources')).flatMap((r): CatalogResource[] =>
    typeof r.uri === 'string' ? [{ uri: r.uri, ...(str(r.name) ? { name: str(r.name) } : {}), ...(str(r.description) ? { description: str(r.description) } : {}) }] : []);
  cat.templates = (await list('resources/templates/list', 'resourceTemplates')).flatMap((r): CatalogTemplate[] =>
    typeof r.uriTemplate === 'string' ? [{ uriTemplate: r.uriTemplate, ...(str(r.name) ? { name: str(r.name) } : {}) }] : []);
  return cat;
}
