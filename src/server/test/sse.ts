/** Reads Server-Sent Events from a fetch Response, for tests. */
export type SseEvent = { event: string; data: string; id?: string };

export function sseReader(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const events: SseEvent[] = [];

  async function next(timeoutMs = 5000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const queued = events.shift();
      if (queued) return queued;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('no SSE event in time');
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no SSE event in time')), remaining)),
      ]);
      if (chunk.done) throw new Error('SSE stream ended');
      buffer += chunk.value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const e: SseEvent = { event: 'message', data: '' };
        let hasData = false;
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) e.event = line.slice(6).trim();
          else if (line.startsWith('data:')) {
            e.data += (hasData ? '\n' : '') + line.slice(5).trimStart();
            hasData = true;
          } else if (line.startsWith('id:')) e.id = line.slice(3).trim();
        }
        if (hasData) events.push(e);
      }
    }
  }

  return { next, cancel: () => reader.cancel().catch(() => {}) };
}
