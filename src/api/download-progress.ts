/**
 * Reads an answer's body chunk by chunk, reporting the bytes received so far (a zip of bills: the
 * screen shows it grow), and gives it as a Blob like `response.blob()`. Loaded only when a request
 * asks for download progress, never with the first route.
 */
export async function readWithProgress(response: Response, onProgress: (received: number, total: number | null) => void): Promise<Blob> {
  const type = response.headers.get('Content-Type') ?? '';
  const length = Number(response.headers.get('Content-Length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (!response.body) return new Blob([], { type });
  const reader = response.body.getReader();
  const chunks: BlobPart[] = [];
  let received = 0;
  onProgress(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(received, total);
  }
  return new Blob(chunks, { type });
}
