/** Google's `Blob` on the host: HTTP bodies, and Utilities.newBlob() data passed to services. */

const ENCODINGS: Record<string, BufferEncoding> = {
  'UTF-8': 'utf8',
  UTF_8: 'utf8',
  'US-ASCII': 'latin1',
  US_ASCII: 'latin1',
  'ISO-8859-1': 'latin1',
};

export function encodingOf(charset: unknown): BufferEncoding {
  if (charset === undefined || charset === null) return 'utf8';
  const encoding = ENCODINGS[String(charset).toUpperCase()];
  if (!encoding) throw new Error('Invalid argument: charset');
  return encoding;
}

export function signedBytes(buffer: Buffer): number[] {
  return Array.from(buffer, (b) => (b > 127 ? b - 256 : b));
}

export class Blob {
  constructor(
    private bytes: Buffer,
    private contentType: string | null = null,
    private name: string | null = null,
  ) {}

  getBytes(): number[] {
    return signedBytes(this.bytes);
  }

  getDataAsString(charset?: unknown): string {
    return this.bytes.toString(encodingOf(charset));
  }

  setDataFromString(text: unknown, charset?: unknown): Blob {
    this.bytes = Buffer.from(String(text), encodingOf(charset));
    return this;
  }

  setBytes(bytes: unknown): Blob {
    if (!Array.isArray(bytes)) throw new Error('Invalid argument: data');
    this.bytes = Buffer.from(bytes.map((b) => Number(b) & 0xff));
    return this;
  }

  getContentType(): string | null {
    return this.contentType;
  }

  setContentType(contentType: unknown): Blob {
    this.contentType = contentType === null ? null : String(contentType);
    return this;
  }

  getName(): string | null {
    return this.name;
  }

  setName(name: unknown): Blob {
    this.name = String(name);
    return this;
  }

  copyBlob(): Blob {
    return new Blob(Buffer.from(this.bytes), this.contentType, this.name);
  }

  isGoogleType(): boolean {
    return false;
  }

  /** Host-side access for services (hidden from scripts by the leading underscore). */
  _buffer(): Buffer {
    return this.bytes;
  }
}
