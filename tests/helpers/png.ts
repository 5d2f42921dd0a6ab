import { PNG } from 'pngjs';

/**
 * A PNG decoded (pngjs): its size and how many distinct colours it holds (a blank picture has one or two), in the
 * whole picture or in the band of rows `rows` gives ([first, end), negative counting from the bottom).
 */
export function pngFacts(png: Buffer, rows?: [number, number]): { width: number; height: number; colours: number } {
  const image = PNG.sync.read(png);
  const colours = new Set<number>();
  const row = (r: number) => Math.max(0, Math.min(image.height, r < 0 ? image.height + r : r));
  const [from, to] = rows ? [row(rows[0]), rows[1] === 0 ? image.height : row(rows[1])] : [0, image.height];
  for (let i = from * image.width * 4; i < to * image.width * 4; i += 4) colours.add(image.data.readUInt32BE(i));
  return { width: image.width, height: image.height, colours: colours.size };
}
