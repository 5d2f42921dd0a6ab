// The `rison` package ships no types; this is the part of its CommonJS API that Meridian uses.
declare module 'rison' {
  const rison: {
    encode(value: unknown): string;
    encode_object(value: Record<string, unknown>): string;
    encode_array(value: unknown[]): string;
    encode_uri(value: unknown): string;
    decode(text: string): unknown;
    decode_object(text: string): Record<string, unknown>;
    decode_array(text: string): unknown[];
  };
  export default rison;
}
