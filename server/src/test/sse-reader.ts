/** Reads a server-sent events stream (GET with a bearer token) into a list of { event, data }, for tests. */
export async function openEvents(url: string, token: string) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: controller.signal });
  const events: { event: string; data: string; at: number }[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: ?(.*)$/m.exec(block)?.[1];
        const data = /^data: ?(.*)$/m.exec(block)?.[1];
        if (event) events.push({ event, data: data ?? '', at: Date.now() });
      }
    }
  })().catch(() => {});
  const ready = async () => {
    const end = Date.now() + 5000;
    while (!events.some((e) => e.event === 'ready') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  };
  await ready();
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    close: async () => {
      controller.abort();
      await pump;
    },
  };
}
