// What a failed send means, in words a user can act on. A page's fetch reports every
// network failure as the same TypeError ("Failed to fetch"), so the cause is read from
// what the transport could tell (the relay names Node's error codes) and otherwise the
// possible causes are listed with the way to tell them apart.

/** A failed send's cause and the next step, from the transport's message and the URL. */
export function explainSendFailure(message: string, url: string): string {
  const m = message.toLowerCase();
  let host = url;
  try {
    host = new URL(url, 'http://localhost/').host;
  } catch {
    // Not a URL: named as typed.
  }
  if (/timeout|timed out|aborted|etimedout/.test(m)) {
    return `Timed out: ${host} accepted the request but sent no answer in time. Check that the server is not stuck on this call, or try again.`;
  }
  if (/econnrefused|connection refused|err_connection_refused/.test(m)) {
    return `Refused: nothing listens at ${host}. Start the server, or check the host and port in the URL.`;
  }
  if (/enotfound|eai_again|name_not_resolved|getaddrinfo/.test(m)) {
    return `Unknown host: ${host} does not resolve. Check the spelling of the URL.`;
  }
  if (/cert|ssl|tls|self.signed|unable to verify/.test(m)) {
    return `TLS failed: the certificate of ${host} is not trusted. Open ${url} in a tab and accept it, or use http:// for a local server.`;
  }
  if (/cors|access-control/.test(m)) {
    return `Blocked by CORS: ${host} answered without Access-Control-Allow-Origin for this page. Tick "via relay" to send through the inspector's relay.`;
  }
  if (/failed to fetch|networkerror|load failed|network error/.test(m)) {
    return `No answer from ${host}: the browser does not say why (the server refused the connection, is not running, blocked the page by CORS, or has a certificate the browser does not trust). Tick "via relay" and send again to see the exact cause.`;
  }
  return `The request could not be sent to ${host}: ${message}`;
}
