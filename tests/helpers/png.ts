import { PNG } from 'pngjs';

/** A PNG decoded (pngjs): its size and how many distinct colours it holds (a blank picture has one or two). */
export function pngFacts(png: Buffer): { width: number; height: number; colours: number } {
  const image = PNG.sync.read(png);
  const colours = new Set<number>();
  for (let i = 0; i < image.data.length; i += 4) colours.add(image.data.readUInt32BE(i));
  return { width: image.width, height: image.height, colours: colours.size };
}
