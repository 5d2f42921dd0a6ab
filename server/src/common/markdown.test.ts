import { describe, expect, it } from 'vitest';
import { markdown } from './markdown';

describe('markdown (Superset\'s utils.core.markdown)', () => {
  it('renders markdown to HTML, and empty text to nothing', () => {
    expect(markdown('Who *was* born\n\n- a\n- b')).toBe('<p>Who <em>was</em> born</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
    expect(markdown(null)).toBe('');
    expect(markdown('')).toBe('');
  });

  it('keeps only the safe tags and attributes, taking scripts and styles out with their content', () => {
    expect(markdown('<b onclick="x()">bold</b> <u>plain</u><script>alert(1)</script><style>p{}</style>')).toBe('<p><b>bold</b> plain</p>');
    expect(markdown('```sql\nSELECT 1 < 2\n```')).toBe('<code>SELECT 1 &lt; 2\n</code>');
  });

  it('keeps links and images of allowed schemes only, links with rel="noopener noreferrer"', () => {
    expect(markdown('[a](https://x.org "T") [b](javascript:alert(1)) [c](/relative) ![i](http://x.org/i.png)')).toBe(
      '<p><a href="https://x.org" title="T" rel="noopener noreferrer">a</a> <a rel="noopener noreferrer">b</a> <a href="/relative" rel="noopener noreferrer">c</a> <img src="http://x.org/i.png" alt="i"></p>',
    );
    expect(markdown('<a href="java\tscript:x">l</a>')).toBe('<p><a rel="noopener noreferrer">l</a></p>');
  });
});
