/** Small but real files for the demo: a spoken-tone WAV recording and a one-page PDF. */

/** A mono 8 kHz 16-bit WAV with a soft tone whose pitch moves like a voice. */
export function makeWav(seconds: number, seed: number): Uint8Array {
  const rate = 8000;
  const samples = Math.max(1, Math.round(seconds * rate));
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write("RIFF", 0);
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write("WAVEfmt ", 8);
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(rate, 24);
  buffer.writeUInt32LE(rate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write("data", 36);
  buffer.writeUInt32LE(samples * 2, 40);
  const base = 140 + (seed % 80);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const pitch = base + 30 * Math.sin(2 * Math.PI * 0.7 * t);
    const envelope = 0.5 + 0.5 * Math.sin(2 * Math.PI * 2.3 * t);
    buffer.writeInt16LE(Math.round(6000 * envelope * Math.sin(2 * Math.PI * pitch * t)), 44 + i * 2);
  }
  return buffer;
}

/** A valid single-page PDF showing the given lines. */
export function makePdf(lines: string[]): Uint8Array {
  const escapeText = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, "?");
  const content = ["BT", "/F1 12 Tf", "72 760 Td", "16 TL", ...lines.map((line) => `(${escapeText(line)}) '`), "ET"].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}
