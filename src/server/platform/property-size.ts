/**
 * Google refuses a property value over 9 KB ("Exceeded maximum property size"; guides/services/
 * quotas: "Properties value size 9 KB / val"). Everything the add-on stores is bounded below it:
 * lists are trimmed from the oldest entry, text from the API or from errors is clipped.
 */
export const PROPERTY_VALUE_MAX_BYTES = 9 * 1024;

/** UTF-8 size of a string, as Google measures a property value. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** At most `maxChars` characters, never splitting a surrogate pair; clipped text ends with "…". */
export function clipText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

export class PropertyTooLargeError extends Error {
  constructor(key: string, bytes: number) {
    super(
      `The add-on's saved state "${key}" would be ${bytes} bytes, over Google's 9 KB per property; nothing was saved. Please report this.`,
    );
    this.name = 'PropertyTooLargeError';
  }
}

/** Throws (before writing anything) when a value would pass Google's limit. */
export function checkPropertySize(key: string, value: string): string {
  const bytes = utf8Bytes(value);
  if (bytes > PROPERTY_VALUE_MAX_BYTES) throw new PropertyTooLargeError(key, bytes);
  return value;
}
