// Splits a Flight payload into its rows, reading binary rows by their length.
const BINARY_TAGS = new Set("TAOoUSsLlGgMmVb".split("").map((c) => c.charCodeAt(0)));

export interface Row {
  id: number;
  tag: string;
  /** Bytes of the row, header and newline included. */
  size: number;
  body: Uint8Array;
}

export function splitRows(bytes: Uint8Array): Row[] {
  const rows: Row[] = [];
  let i = 0;
  while (i < bytes.length) {
    const start = i;
    let id = 0;
    while (bytes[i] !== 58) id = id * 16 + parseInt(String.fromCharCode(bytes[i++]), 16);
    i++;
    const tagByte = bytes[i];
    if (BINARY_TAGS.has(tagByte)) {
      i++;
      let length = 0;
      while (bytes[i] !== 44) length = length * 16 + parseInt(String.fromCharCode(bytes[i++]), 16);
      i++;
      rows.push({ id, tag: String.fromCharCode(tagByte), size: i + length - start, body: bytes.subarray(i, i + length) });
      i += length;
    } else {
      const end = bytes.indexOf(10, i);
      const isTagged = (tagByte > 64 && tagByte < 91) || tagByte === 35 || tagByte === 114 || tagByte === 120;
      rows.push({ id, tag: isTagged ? String.fromCharCode(tagByte) : "", size: end + 1 - start, body: bytes.subarray(isTagged ? i + 1 : i, end) });
      i = end + 1;
    }
  }
  return rows;
}
