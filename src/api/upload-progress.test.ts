import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchWithUploadProgress } from './upload-progress';

/** A stand-in XMLHttpRequest: records what was sent, then reports progress and answers as told. */
class FakeXhr {
  static last: FakeXhr;
  static answer: { status: number; headers: string; body: string } | 'network-error' = { status: 200, headers: '', body: '' };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  sent: unknown;
  responseType = '';
  status = 0;
  statusText = '';
  response: ArrayBuffer | null = null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private answerHeaders = '';
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getAllResponseHeaders() {
    return this.answerHeaders;
  }
  abort() {
    this.onabort?.();
  }
  send(body: unknown) {
    this.sent = body;
    queueMicrotask(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 200, total: 200 });
      const a = FakeXhr.answer;
      if (a === 'network-error') return this.onerror?.();
      this.status = a.status;
      this.answerHeaders = a.headers;
      this.response = new TextEncoder().encode(a.body).buffer as ArrayBuffer;
      this.onload?.();
    });
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('fetchWithUploadProgress', () => {
  it('sends method, headers and body, reports the bytes sent, and answers as a Response', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.answer = { status: 400, headers: 'content-type: application/json\r\nx-test: a', body: '{"errorCodeResponse":"X"}' };
    const seen: number[] = [];
    const form = new FormData();
    const res = await fetchWithUploadProgress('/bff/up', { method: 'POST', headers: { Authorization: 'Bearer t' }, body: form }, (f) =>
      seen.push(f),
    );
    expect(FakeXhr.last).toMatchObject({ method: 'POST', url: '/bff/up', headers: { Authorization: 'Bearer t' }, sent: form });
    expect(seen).toEqual([0.25, 1]);
    expect(res.status).toBe(400);
    expect(res.headers.get('x-test')).toBe('a');
    expect(await res.json()).toEqual({ errorCodeResponse: 'X' });
  });

  it('no answer is the TypeError fetch throws; an aborted signal the AbortError', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.answer = 'network-error';
    await expect(fetchWithUploadProgress('/x', { method: 'POST' }, () => {})).rejects.toBeInstanceOf(TypeError);
    const aborted = AbortSignal.abort();
    await expect(fetchWithUploadProgress('/x', { method: 'POST', signal: aborted }, () => {})).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
