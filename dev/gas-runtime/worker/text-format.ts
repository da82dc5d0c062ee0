/** Utilities.formatString (Java String.format subset) and Utilities.parseCsv. */

export function formatString(template: string, args: unknown[]): string {
  let next = 0;
  return template.replace(
    /%(-)?(0)?(\d+)?(?:\.(\d+))?([sdfxXe%])/g,
    (_m, left: string, zero: string, width: string, precision: string, conv: string) => {
      if (conv === '%') return '%';
      if (next >= args.length) throw new Error(`Missing format argument for %${conv}`);
      const arg = args[next++];
      let text: string;
      switch (conv) {
        case 'd':
          text = String(Math.trunc(Number(arg)));
          break;
        case 'f':
          text = Number(arg).toFixed(precision === undefined ? 6 : Number(precision));
          break;
        case 'e':
          text = Number(arg).toExponential(precision === undefined ? 6 : Number(precision));
          break;
        case 'x':
          text = Math.trunc(Number(arg)).toString(16);
          break;
        case 'X':
          text = Math.trunc(Number(arg)).toString(16).toUpperCase();
          break;
        default:
          text = precision === undefined ? String(arg) : String(arg).slice(0, Number(precision));
      }
      const w = width === undefined ? 0 : Number(width);
      if (text.length >= w) return text;
      if (left) return text + ' '.repeat(w - text.length);
      if (zero && conv !== 's') {
        const negative = text.startsWith('-');
        const digits = negative ? text.slice(1) : text;
        return (negative ? '-' : '') + '0'.repeat(w - text.length) + digits;
      }
      return ' '.repeat(w - text.length) + text;
    },
  );
}

/** RFC 4180 CSV: quoted fields may hold the delimiter, doubled quotes and line breaks. */
export function parseCsv(csv: string, delimiter: string): string[][] {
  if (delimiter.length !== 1) throw new Error('Invalid argument: delimiter');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const ch = csv[i];
    if (quoted) {
      if (ch === '"' && csv[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && csv[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
